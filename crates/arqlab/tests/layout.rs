//! The layout shows the design: the modules of the crate depend on each other one way.
//! Reads `src/` and builds two graphs from the paths each file names outside its test
//! module (`use` statements and inline paths alike): sibling files of one directory
//! (`super::x`, `crate::top::x`), and top-level modules (`crate::x`). Neither may have a
//! cycle. A parent's `mod.rs` re-exporting its children is not an edge (Rust's facade).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Top-level pairs that still depend on each other, each with why (to be removed, never
/// added to): `channel/link.rs` takes `protocol::Pdu` for the frames in flight and
/// `protocol/hf` takes `channel::modem::ModemTable` for its modes.
const KNOWN_TOP_LEVEL: &[(&str, &str)] = &[("channel", "protocol")];

fn idents(s: &str, prefix: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = s;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            out.extend(group[..end].split(',').filter_map(|x| x.trim().split("::").next()).filter(|x| !x.is_empty()).map(String::from));
        } else {
            out.push(rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect());
        }
    }
    out
}

/// (module path, code outside comments and the test module) for every file.
fn sources() -> Vec<(Vec<String>, String)> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    walk(&root, &mut files);
    files
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "tests.rs" && !n.to_string_lossy().ends_with("_tests.rs")))
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap().with_extension("");
            let mut m: Vec<String> = rel.iter().map(|x| x.to_string_lossy().into_owned()).collect();
            if m.last().is_some_and(|x| x == "mod" || x == "lib") {
                m.pop();
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            let is_mod = p.file_name().is_some_and(|n| n == "mod.rs");
            if is_mod {
                m.push("mod".into()); // its siblings are its children; edges to them are the facade
            }
            (m, code)
        })
        .collect()
}

fn graphs() -> (Graph, Graph) {
    let files = sources();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let (mut top, mut siblings) = (Graph::new(), Graph::new());
    for (m, code) in &files {
        if m.is_empty() || m[0] == "lib" {
            continue;
        }
        for t in idents(code, "crate::") {
            if t != m[0] && !t.is_empty() {
                top.entry(m[0].clone()).or_default().insert(t);
            }
        }
        if m.last().is_some_and(|x| x == "mod") {
            continue;
        }
        let parent = &m[..m.len() - 1];
        let mut names = idents(code, "super::");
        // `crate::<parent>::<sibling>` names a sibling too.
        let own = format!("crate::{}::", parent.join("::"));
        if !parent.is_empty() {
            names.extend(idents(code, &own));
        }
        for n in names {
            let mut t = parent.to_vec();
            t.push(n);
            if &t != m && modules.contains(&t) {
                siblings.entry(m.join("::")).or_default().insert(t.join("::"));
            }
        }
    }
    (top, siblings)
}

fn cycle(g: &Graph, skip: &[(&str, &str)]) -> Option<Vec<String>> {
    let edge = |a: &str, b: &str| !skip.iter().any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b));
    for start in g.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((n, path)) = stack.pop() {
            for t in g.get(&n).into_iter().flatten().filter(|t| edge(&n, t)) {
                if t == start {
                    return Some(path);
                }
                if !path.contains(t) {
                    let mut p = path.clone();
                    p.push(t.clone());
                    stack.push((t.clone(), p));
                }
            }
        }
    }
    None
}

#[test]
fn sibling_modules_depend_on_each_other_one_way() {
    let (_, siblings) = graphs();
    assert!(siblings.contains_key("sim::runner") && siblings.contains_key("scenario::topology"), "the graph sees the files");
    assert_eq!(cycle(&siblings, &[]), None, "an import cycle between sibling modules");
}

#[test]
fn top_level_modules_depend_on_each_other_one_way() {
    let (top, _) = graphs();
    assert!(top["sim"].contains("scenario") && !top.get("scenario").is_some_and(|s| s.contains("sim")));
    assert_eq!(cycle(&top, KNOWN_TOP_LEVEL), None, "an import cycle between top-level modules");
    for (a, b) in KNOWN_TOP_LEVEL {
        assert!(top[*a].contains(*b) && top[*b].contains(*a), "{a} <-> {b} is gone: remove it from KNOWN_TOP_LEVEL");
    }
}

#[test]
fn the_checker_finds_a_cycle() {
    let g: Graph = [("a", "b"), ("b", "c"), ("c", "a")].into_iter().map(|(x, y)| (x.to_string(), BTreeSet::from([y.to_string()]))).collect();
    assert_eq!(cycle(&g, &[]).map(|p| p.len()), Some(3));
    assert_eq!(cycle(&g, &[("c", "a")]), None);
}
