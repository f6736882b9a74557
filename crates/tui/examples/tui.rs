//! Plays in the terminal: `cargo run -p nestris-tui --example tui -- --level 9 --seed 42`.

fn main() -> anyhow::Result<()> {
    let options =
        nestris_tui::TuiOptions::from_args(std::env::args().skip(1)).map_err(anyhow::Error::msg)?;
    nestris_tui::run(options)
}
