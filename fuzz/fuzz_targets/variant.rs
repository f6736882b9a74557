//! Fuzz target: any bytes given to the variant decoder (a replay's variant block) give a
//! variant or nothing; one it accepts encodes to the same bytes, and a game under it (its
//! drought re-picks and DAS-only counters included) plays two thousand frames without a
//! panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_core::{Buttons, Game, GameSetup, Variant, VARIANT_LEN};

fuzz_target!(|data: &[u8]| {
    let len = data
        .first()
        .and_then(|&v| Variant::encoded_len(v))
        .unwrap_or(VARIANT_LEN)
        .min(data.len());
    let (block, inputs) = data.split_at(len);
    if let Some(variant) = Variant::decode(block) {
        assert_eq!(&variant.encode()[..], block);
        let mut game = Game::new(GameSetup {
            level: 18,
            variant,
            ..GameSetup::default()
        });
        for i in 0..2000 {
            let b = inputs.get(i % inputs.len().max(1)).copied().unwrap_or(0);
            game.step(Buttons(b));
        }
    }
});
