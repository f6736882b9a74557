//! `nestris-tui`: the terminal front end on its own, for trying it out and for the tmux test.

fn main() -> anyhow::Result<()> {
    let options =
        nestris_tui::TuiOptions::from_args(std::env::args().skip(1)).map_err(anyhow::Error::msg)?;
    nestris_tui::run(options)
}
