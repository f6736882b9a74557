//! `Game::step` allocates nothing: whole games run under an allocation counter.

use nestris_core::{Buttons, Game, GameSetup, GameType, Region};

#[test]
fn stepping_never_allocates() {
    // Build everything first, then count only the stepping.
    let mut games = vec![
        Game::power_on(Region::Ntsc),
        Game::new(GameSetup::from_seed(1)),
        Game::new(GameSetup {
            level: 18,
            ..GameSetup::from_seed(2)
        }),
        Game::new(GameSetup {
            game_type: GameType::B,
            height: 5,
            ..GameSetup::from_seed(3)
        }),
    ];
    let inputs: Vec<Buttons> = (0..60_000u32)
        .map(|i| {
            let x = i.wrapping_mul(2_654_435_761) >> 24;
            // Start now and then, so menus, pauses and game overs are crossed too.
            if i % 997 == 0 {
                Buttons::START
            } else {
                Buttons(x as u8 & 0xCF)
            }
        })
        .collect();
    let mut flags = 0u32;
    let info = allocation_counter::measure(|| {
        for g in &mut games {
            for &b in &inputs {
                flags |= g.step(b).flags;
            }
            let copy = g.clone();
            flags |= copy.state().score[0] as u32;
        }
    });
    assert_eq!(
        info.count_total, 0,
        "allocations while stepping (events seen {flags:#x})"
    );
    assert!(flags != 0);
}
