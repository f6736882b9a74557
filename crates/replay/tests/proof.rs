//! A replay proves its game (format 2): edited inputs, a changed start and a stripped proof
//! are told apart from a replay that plays what it records, and format 1 files still read.

use nestris_core::{Buttons, DemoData, GameSetup, Region};
use nestris_replay::{Mismatch, Recorder, Replay, ReplayError, Start, Verdict};

/// A format 1 file written before proofs: 1,500 frames from power-on into a game.
const FORMAT1: &[u8] = include_bytes!("data/format1-power-on.nestris");
/// Its recorded final state.
const FORMAT1_FINAL: u64 = 0x4a2e_bc00_db37_52b6;

/// Through the menus from power-on, then shifts, rotations and soft drops.
fn script(i: usize) -> Buttons {
    match i {
        270..354 if (i - 270) % 21 == 0 => Buttons::START,
        0..354 => Buttons::NONE,
        _ => match i % 48 {
            0 | 2 if i % 96 < 48 => Buttons::LEFT,
            0 | 2 | 4 => Buttons::RIGHT,
            8 => Buttons::A,
            20..40 => Buttons::DOWN,
            _ => Buttons::NONE,
        },
    }
}

fn recorded(frames: usize) -> Replay {
    let mut r = Recorder::new(Start::PowerOn(Region::Ntsc));
    (0..frames).for_each(|i| r.push(script(i)));
    r.replay()
}

/// Writes a fresh checksum over edited bytes, as an editor of a file would.
fn recrc(b: &mut [u8]) {
    let n = b.len();
    let crc = crc32fast::hash(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_sealed_replay_proves_its_game_and_round_trips() {
    let r = recorded(1_520);
    let proof = r.proof.as_ref().unwrap();
    assert_eq!(proof.interval, 300);
    assert_eq!(proof.checkpoints.len(), 5);
    let back = Replay::from_bytes(&r.to_bytes()).unwrap();
    assert_eq!(back, r);
    let summary = back.verify().unwrap();
    assert_eq!(summary.verdict, Verdict::Proven);
    assert!(summary.verdict.is_proven());
    assert_eq!(summary.verdict.word(), "yes");
}

#[test]
fn an_edit_that_converges_is_caught_and_placed() {
    let r = recorded(1_520);
    // Frame 100 is on the legal screen, which reads no buttons: the game ends in the same
    // state, so the final hash alone (format 1) would call the edited file verified.
    let mut edited = r.clone();
    edited.inputs[100] = Buttons::A;
    let (_, s) = edited.play_with_demo(edited.inputs.len(), &DemoData::BUILTIN);
    assert_eq!(Some(s.final_hash), r.final_hash, "the edit converges");
    let edited = Replay::from_bytes(&edited.to_bytes()).unwrap();
    assert_eq!(
        edited.verify(),
        Err(ReplayError::Differs(Mismatch::Inputs { from: 0, to: 300 }))
    );

    // An edit in the last checkpoint's stretch and one after it.
    let mut later = r.clone();
    later.inputs[1_000] = Buttons(later.inputs[1_000].bits() ^ Buttons::B.bits());
    assert_eq!(
        later.verify(),
        Err(ReplayError::Differs(Mismatch::Inputs {
            from: 900,
            to: 1_200
        }))
    );
    let mut tail = r.clone();
    tail.inputs[1_510] = Buttons::SELECT;
    let e = tail.verify().unwrap_err();
    assert_eq!(
        e,
        ReplayError::Differs(Mismatch::Inputs {
            from: 1_500,
            to: 1_520
        })
    );
    assert!(e.to_string().contains("frames 1501 to 1520"), "{e}");
}

#[test]
fn a_changed_start_is_a_different_game_by_the_first_checkpoint() {
    let mut r = Replay::new(Start::Setup(GameSetup::default()));
    r.inputs = (0..700).map(|i| script(i + 400)).collect();
    r.seal();
    let mut other = r.clone();
    other.start = Start::Setup(GameSetup {
        level: 5,
        ..GameSetup::default()
    });
    match other.verify() {
        Err(ReplayError::Differs(Mismatch::State {
            from: 0, to: 300, ..
        })) => {}
        e => panic!("{e:?}"),
    }
}

#[test]
fn playing_part_way_checks_the_checkpoints_passed() {
    let r = recorded(1_520);
    let (_, s) = r.play_with_demo(700, &DemoData::BUILTIN);
    assert_eq!(s.verdict, Verdict::ProvenTo { to: 600 });
    assert!(s.verdict.is_proven());
    let (_, s) = r.play_with_demo(100, &DemoData::BUILTIN);
    assert_eq!(s.verdict, Verdict::ProvenTo { to: 0 });
    assert!(!s.verdict.is_proven(), "no checkpoint reached");
    assert_eq!(s.verdict.word(), "unchecked");
}

#[test]
fn format_1_files_read_and_prove_only_their_final_state() {
    assert_eq!(&FORMAT1[8..10], &[1, 0], "a format 1 file");
    let old = Replay::from_bytes(FORMAT1).unwrap();
    assert_eq!(old.inputs.len(), 1_500);
    assert_eq!(old.final_hash, Some(FORMAT1_FINAL));
    assert_eq!(old.proof, None);
    let summary = old.verify().unwrap();
    assert_eq!(summary.verdict, Verdict::FinalStateOnly);
    assert!(!summary.verdict.is_proven());
    // It is the scripted game; sealed again, it is written as format 2 and proves itself.
    assert_eq!(old.inputs, recorded(1_500).inputs);
    let mut new = old.clone();
    new.seal();
    let bytes = new.to_bytes();
    assert_eq!(&bytes[8..10], &[2, 0]);
    assert_eq!(
        Replay::from_bytes(&bytes)
            .unwrap()
            .verify()
            .unwrap()
            .verdict,
        Verdict::Proven
    );

    // Its hash flag cleared: nothing to check, which is not "verified".
    let mut bare = FORMAT1.to_vec();
    bare[10] &= !1;
    recrc(&mut bare);
    let bare = Replay::from_bytes(&bare).unwrap();
    assert_eq!(bare.verify().unwrap().verdict, Verdict::Unrecorded);
    // A format 1 file cannot carry a proof.
    let mut flagged = FORMAT1.to_vec();
    flagged[10] |= 8;
    recrc(&mut flagged);
    assert!(matches!(
        Replay::from_bytes(&flagged),
        Err(ReplayError::BadField { what: "flags", .. })
    ));
}

#[test]
fn a_damaged_proof_is_a_clear_error() {
    let r = recorded(1_520);
    let good = r.to_bytes();
    let n = good.len();
    // The checkpoint count sits before 5 checkpoints of 16 bytes and the checksum.
    let count_at = n - 4 - 5 * 16 - 4;
    assert_eq!(&good[count_at..count_at + 4], &[5, 0, 0, 0]);
    let mut b = good.clone();
    b[count_at] = 6;
    recrc(&mut b);
    assert!(matches!(
        Replay::from_bytes(&b),
        Err(ReplayError::BadField { what: "checkpoint count", at, .. }) if at == count_at
    ));
    // A proof claims a final state: without one the flags are damage.
    let mut b = good.clone();
    b[10] &= !1;
    recrc(&mut b);
    assert!(matches!(
        Replay::from_bytes(&b),
        Err(ReplayError::BadField { at: 10, .. })
    ));
    // A recorded checkpoint changed: named by its frame.
    let mut b = good.clone();
    b[count_at + 4 + 16] ^= 1; // checkpoint 2's state hash
    recrc(&mut b);
    match Replay::from_bytes(&b).unwrap().verify() {
        Err(ReplayError::Differs(Mismatch::State {
            from: 300, to: 600, ..
        })) => {}
        e => panic!("{e:?}"),
    }
    // Cut anywhere in the proof: truncation or damage, never a panic.
    for cut in n - 4 - 5 * 16 - 16..n {
        assert!(Replay::from_bytes(&good[..cut]).is_err());
    }
}
