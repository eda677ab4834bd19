//! Files a scenario names (an HF modem table today): read under the same rules as
//! scenario files themselves — a regular file (never a directory, device, FIFO or
//! socket, which could block or never end), at most [`MAX_FILE_BYTES`], UTF-8 text.

use std::io::Read;

/// The largest file a scenario may name (the same cap as a scenario file).
pub const MAX_FILE_BYTES: u64 = 1_000_000;

/// The text of `path`, or why it cannot be used (for "expected …" messages).
pub fn read_text(path: &str) -> Result<String, String> {
    // stat, not open: opening a FIFO would block until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    if meta.is_dir() {
        return Err("it is a directory".into());
    }
    if !meta.is_file() {
        return Err("it is not a regular file (a device, pipe or socket)".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("it is {} bytes, more than {MAX_FILE_BYTES}", meta.len()));
    }
    let mut data = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    // The size may have changed since the stat.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut data).map_err(|e| format!("cannot read it: {e}"))?;
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("it is more than {MAX_FILE_BYTES} bytes"));
    }
    String::from_utf8(data).map_err(|e| format!("it is not UTF-8 text (invalid byte at {})", e.utf8_error().valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_fifos_and_large_files_are_refused_without_reading_them() {
        assert_eq!(read_text("/dev/zero").unwrap_err(), "it is not a regular file (a device, pipe or socket)");
        assert_eq!(read_text("/").unwrap_err(), "it is a directory");
        let dir = std::env::temp_dir().join(format!("arqlab-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            assert_eq!(read_text(fifo.to_str().unwrap()).unwrap_err(), "it is not a regular file (a device, pipe or socket)");
        }
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert_eq!(read_text(big.to_str().unwrap()).unwrap_err(), format!("it is {} bytes, more than {MAX_FILE_BYTES}", MAX_FILE_BYTES + 1));
        let ok = dir.join("ok.toml");
        std::fs::write(&ok, "name = \"x\"\n").unwrap();
        assert_eq!(read_text(ok.to_str().unwrap()).unwrap(), "name = \"x\"\n");
        std::fs::write(&ok, [0xff, 0xfe]).unwrap();
        assert!(read_text(ok.to_str().unwrap()).unwrap_err().contains("not UTF-8"));
        assert!(read_text(dir.join("missing").to_str().unwrap()).unwrap_err().starts_with("cannot read it: "));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
