//! The layout shows the design: the modules of the crate depend on each other one way.
//! Reads `src/` and builds two graphs from the paths each file names outside its test
//! module (`use` statements and inline paths alike): sibling modules of one directory
//! (`super::x`, `crate::top::x`; a directory module counts as one sibling with every
//! file under it), and top-level modules (`crate::x`). Neither may have a cycle. A
//! parent's `mod.rs` re-exporting its children is not an edge (Rust's facade), but a
//! name used through the facade (`super::Pdu`) is an edge to the child defining it.

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
            // Up to the inline test module (`#[cfg(test)]` before `mod … {`); a single
            // test-only item (`#[cfg(test)] pub mod testpair;`) does not end the code.
            let mut end = text.len();
            let mut from = 0;
            while let Some(i) = text[from..].find("#[cfg(test)]") {
                let at = from + i;
                let next = text[at + 12..].trim_start().lines().next().unwrap_or("");
                if (next.starts_with("mod ") || next.starts_with("pub mod ")) && next.contains('{') {
                    end = at;
                    break;
                }
                from = at + 12;
            }
            let code = &text[..end];
            let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            let is_mod = p.file_name().is_some_and(|n| n == "mod.rs");
            if is_mod {
                m.push("mod".into()); // its siblings are its children; edges to them are the facade
            }
            (m, code)
        })
        .collect()
}

/// The chains `super::…::super::X` in `code`: (number of `super`s, the names after the
/// chain, a `{…}` group giving several).
fn super_chains(code: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut at = 0;
    while let Some(i) = code[at..].find("super::") {
        let start = at + i;
        let mut rest = &code[start..];
        let mut n = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            n += 1;
        }
        at = code.len() - rest.len();
        for name in idents(&format!("@{rest}"), "@") {
            out.push((n, name));
        }
    }
    out
}

/// A directory module's facade: `pub use child::{A, B}` (or `super::x::A`) in its
/// `mod.rs` → (directory, item) → the module that defines the item.
fn facades(files: &[(Vec<String>, String)], modules: &BTreeSet<Vec<String>>) -> BTreeMap<(Vec<String>, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for (m, code) in files.iter().filter(|(m, _)| m.last().is_some_and(|x| x == "mod")) {
        let dir = &m[..m.len() - 1];
        for line in code.lines().filter_map(|l| l.trim().strip_prefix("pub use ")) {
            let (mut base, mut rest) = (dir.to_vec(), line);
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            let Some((child, items)) = rest.split_once("::") else { continue };
            let mut target = base.clone();
            target.push(child.to_string());
            if !modules.contains(&target) {
                continue;
            }
            for item in idents(&format!("@{items}"), "@") {
                out.insert((dir.to_vec(), item), target.clone());
            }
        }
    }
    out
}

fn graphs() -> (Graph, Graph) {
    let files = sources();
    let path = |m: &Vec<String>| -> Vec<String> { m.iter().filter(|x| *x != "mod").cloned().collect() };
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| path(m)).collect();
    let facade = facades(&files, &modules);
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
        // At every level of the file's module path, the unit it belongs to (itself, its
        // directory, …) depends on the siblings it names there: `super::…::X` or
        // `crate::<parent>::X`, X a module or an item its parent's facade re-exports.
        let p = path(m);
        let chains = super_chains(code);
        for k in 1..p.len() {
            let (parent, unit) = (&p[..k], &p[..k + 1]);
            let supers = p.len() - k;
            let mut names: Vec<String> = chains.iter().filter(|(n, _)| *n == supers).map(|(_, x)| x.clone()).collect();
            names.extend(idents(code, &format!("crate::{}::", parent.join("::"))));
            for n in names {
                let mut t = parent.to_vec();
                t.push(n.clone());
                let target = if modules.contains(&t) { t } else if let Some(x) = facade.get(&(parent.to_vec(), n)) { x.clone() } else { continue };
                if target.len() > k && target[..k + 1] != *unit {
                    siblings.entry(unit.join("::")).or_default().insert(target[..k + 1].join("::"));
                }
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
fn a_name_used_through_a_facade_is_an_edge_to_its_module() {
    // protocol/ip/mod.rs names `super::Pdu`, which protocol/mod.rs re-exports from
    // layer.rs: protocol::ip depends on protocol::layer (and so layer.rs must not name
    // anything of ip: the IP header it hands routers lives in ip_header.rs).
    let (_, siblings) = graphs();
    assert!(siblings["protocol::ip"].contains("protocol::layer"), "{:?}", siblings["protocol::ip"]);
    assert!(siblings["protocol::layer"].contains("protocol::ip_header"));
    assert_eq!(super_chains("use super::super::{a, b}; x = super::c::d;"), vec![(2, "a".into()), (2, "b".into()), (1, "c".into())]);
}

#[test]
fn the_checker_finds_a_cycle() {
    let g: Graph = [("a", "b"), ("b", "c"), ("c", "a")].into_iter().map(|(x, y)| (x.to_string(), BTreeSet::from([y.to_string()]))).collect();
    assert_eq!(cycle(&g, &[]).map(|p| p.len()), Some(3));
    assert_eq!(cycle(&g, &[("c", "a")]), None);
}

