//! Computes a hash of the simulator's source (the core crate and these bindings) so that
//! results stored under one model version are never mixed silently with another's,
//! even when the package version was not bumped.

use std::fs;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") || p.file_name().is_some_and(|n| n == "Cargo.toml") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let dirs = [root.join("../arqlab/src"), root.join("../arqlab/Cargo.toml"), root.join("src"), root.join("../../Cargo.lock")];
    let mut files = Vec::new();
    for d in &dirs {
        println!("cargo:rerun-if-changed={}", d.display());
        if d.is_dir() {
            collect(d, &mut files);
        } else {
            files.push(d.clone());
        }
    }
    files.sort();
    // FNV-1a over (relative path, contents): stable across machines and checkouts.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        eat(rel.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&fs::read(f).unwrap_or_default());
    }
    println!("cargo:rustc-env=ARQLAB_MODEL_HASH={h:016x}");
}
