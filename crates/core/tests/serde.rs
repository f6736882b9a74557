//! With the `serde` feature, a snapshot survives JSON both ways (run with
//! `cargo test -p nestris-core --features serde`).
#![cfg(feature = "serde")]

use nestris_core::{Buttons, Game, GameSetup, Region, Snapshot};

#[test]
fn snapshots_round_trip_through_json() {
    let mut game = Game::power_on(Region::Ntsc);
    for i in 0..4000u32 {
        game.step(if i % 300 == 299 {
            Buttons::START
        } else {
            Buttons((i % 7) as u8)
        });
        if i % 500 == 0 {
            let s = game.snapshot();
            let json = serde_json::to_string(&s).unwrap();
            let back: Snapshot = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s);
            assert!(Game::from_snapshot(back).is_ok());
        }
    }
    let setup = GameSetup::from_seed(3);
    let json = serde_json::to_string(&setup).unwrap();
    assert_eq!(serde_json::from_str::<GameSetup>(&json).unwrap(), setup);
}

#[test]
fn json_from_before_crash_modes_still_reads() {
    use nestris_core::CrashMode;
    let setup = GameSetup {
        crash_mode: CrashMode::TopOut,
        ..GameSetup::default()
    };
    let mut v = serde_json::to_value(setup).unwrap();
    assert_eq!(v["crash_mode"], "topout");
    v.as_object_mut().unwrap().remove("crash_mode");
    let old: GameSetup = serde_json::from_value(v).unwrap();
    assert_eq!(old.crash_mode, CrashMode::Cartridge);
    let s = Game::new(setup).snapshot();
    let mut v = serde_json::to_value(&s).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("crash_mode");
    o.remove("crash");
    let old: Snapshot = serde_json::from_value(v).unwrap();
    assert_eq!(old.crash_mode, CrashMode::Cartridge);
    assert!(old.crash.is_none());
}
