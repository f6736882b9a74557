//! Files the user names for output: checked before any work starts (a typo in a folder
//! name should cost a second, not a benchmark), then written whole or not at all.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

/// `-o -`: write to standard output instead of a file.
pub const STDOUT: &str = "-";

/// Checks that `path` can be written: not a folder, in a folder that exists and takes new
/// files. Nothing is created: a missing folder is the user's to make.
pub fn check(path: &Path) -> Result<()> {
    if path.as_os_str() == STDOUT {
        return Ok(());
    }
    if path.as_os_str().is_empty() {
        bail!("an empty output path");
    }
    if path.is_dir() {
        bail!("cannot write {}: it is a folder", path.display());
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "cannot write {}: {} is not a folder",
            path.display(),
            dir.display()
        ),
        Err(e) => bail!(
            "cannot write {}: folder {}: {}",
            path.display(),
            dir.display(),
            reason(&e)
        ),
    }
    // A probe named as our temporary files are, so a kill here leaves nothing that the
    // next write's clean-up does not remove.
    let probe = dir.join(format!(".nestris-probe.{}.tmp", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => bail!(
            "cannot write {}: folder {}: {}",
            path.display(),
            dir.display(),
            reason(&e)
        ),
    }
}

/// Writes what `fill` produces to `path` (checked by [`check`]) atomically, or to standard
/// output for `-`.
pub fn write(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    if path.as_os_str() == STDOUT {
        let mut out = std::io::stdout().lock();
        return fill(&mut out)
            .and_then(|()| out.flush())
            .context("cannot write to standard output");
    }
    nestris_replay::write_atomically_with(path, fill)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// An I/O error as a person says it ("does not exist", not "No such file or directory
/// (os error 2)").
fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "does not exist".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_checked_without_creating_anything() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/x.png");
        let e = check(&missing).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert!(!dir.path().join("no").exists());
        let e = check(dir.path()).unwrap_err().to_string();
        assert!(e.contains("it is a folder"), "{e}");
        let file = dir.path().join("x.png");
        check(&file).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        std::fs::write(&file, b"x").unwrap();
        let e = check(&file.join("y.png")).unwrap_err().to_string();
        assert!(e.contains("is not a folder"), "{e}");
        check(Path::new(STDOUT)).unwrap();
    }
}
