//! The project's own tests keep the guide's rules: no test installs software (that is
//! `tools/deps.sh --test`), none passes by printing that it did not run, and every
//! ignored test gives its reason (`needs X`) in the attribute, so a green run hides nothing.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn tests_install_nothing_skip_nothing_and_say_why_they_are_ignored() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&crates, &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let me = file!().rsplit('/').next().unwrap();
    // Spelt in pieces so this file does not match itself.
    let installs = ["apt", "-get install"].concat();
    let not_run = ["s", "kip"].concat();
    let not_run_prints = [
        ["println!(\"", &not_run].concat(),
        ["eprintln!(\"", &not_run].concat(),
    ];
    let bare_ignore = ["#[ig", "nore]"].concat();
    let mut found = Vec::new();
    for f in &files {
        if f.ends_with(me) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if line.contains(&installs)
                || not_run_prints.iter().any(|s| lower.contains(s.as_str()))
                || line.contains(&bare_ignore)
            {
                found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
