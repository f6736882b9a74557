//! Plays in the terminal from power-on: `cargo run -p nestris-tui --example tui`
//! (add `-- --quick 9` to be pressed through the menus to a level-9 game).

fn main() -> anyhow::Result<()> {
    let options =
        nestris_tui::TuiOptions::from_args(std::env::args().skip(1)).map_err(anyhow::Error::msg)?;
    nestris_tui::run(options)
}
