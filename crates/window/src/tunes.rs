//! The music's scores, as text: our arrangement of the folk tune Korobeiniki, and the
//! project's own original tunes for the other slots (none is the cartridge's music).
//!
//! A tune is a melody and a chord per half bar, section by section; the harmony
//! (square 1, broken chords), the bass (triangle, root and octave) and the drums (noise)
//! are written out from the chords and one drum bar when the score is built
//! ([`crate::music::Score`]). Notes are `c4`..`b6` with `#` for sharps, `r` a rest, and
//! `:N` a length in sixteenths (kept for the following notes until another is given);
//! `|` ends a bar, which must hold exactly [`BAR_STEPS`] sixteenths. Drum hits are `k`
//! (low), `s` (snare), `h` (hat). See `docs/MUSIC.md`.

/// Sixteenths in a bar (4/4).
pub const BAR_STEPS: u32 = 16;

/// A tune as written.
#[derive(Clone, Copy, Debug)]
pub struct TuneText {
    /// Its name in the docs and the WAV tool.
    pub name: &'static str,
    /// The sections in order: (melody, chords, drum bar), one chord per half bar.
    pub form: &'static [Section],
    /// Frames (1/60 s) per sixteenth: the normal version, and the fast one.
    pub frames_per_step: [u8; 2],
    /// Loops (the game's tunes) or plays once (the goal's fanfare).
    pub looping: bool,
}

/// One section of a tune.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// The melody (square 2).
    pub melody: &'static str,
    /// A chord name per half bar, bars split by `|` (names in [`CHORDS`]).
    pub chords: &'static str,
    /// One bar of drums, repeated over the section; empty for none.
    pub drums: &'static str,
}

/// Chords: name, three notes of square 1's broken chord (low to high), triangle's root.
pub const CHORDS: [(&str, [&str; 3], &str); 13] = [
    ("Am", ["a3", "c4", "e4"], "a2"),
    ("E", ["g#3", "b3", "e4"], "e2"),
    ("Dm", ["a3", "d4", "f4"], "d2"),
    ("C", ["g3", "c4", "e4"], "c3"),
    ("F", ["a3", "c4", "f4"], "f2"),
    ("G", ["g3", "b3", "d4"], "g2"),
    ("Em", ["g3", "b3", "e4"], "e2"),
    ("D", ["f#3", "a3", "d4"], "d2"),
    ("Bb", ["a#3", "d4", "f4"], "a#2"),
    ("Gm", ["g3", "a#3", "d4"], "g2"),
    ("B", ["f#3", "b3", "d#4"], "b2"),
    ("A", ["a3", "c#4", "e4"], "a2"),
    ("Fm", ["g#3", "c4", "f4"], "f2"),
];

// ---------------------------------------------------------------------------------------
// MUSIC 1: Korobeiniki, the Russian folk song (public domain), in A minor. Our
// arrangement: the folk melody twice, a bridge of our own in C major turning back to E,
// the melody again.

const KOROBEINIKI_VERSE: &str = "\
e5:4 b4:2 c5 d5:4 c5:2 b4 | a4:4 a4:2 c5 e5:4 d5:2 c5 | b4:6 c5:2 d5:4 e5 | c5 a4 a4 r |
r:2 d5:4 f5:2 a5:4 g5:2 f5 | e5:6 c5:2 e5:4 d5:2 c5 | b4:4 b4:2 c5 d5:4 e5 | c5 a4 a4 r |";

const KOROBEINIKI_CHORDS: &str = "Am E | Am Am | E E | Am Am | Dm Dm | C Am | E E | Am Am |";

const KOROBEINIKI_BRIDGE: &str = "\
a4:4 c5 f5:6 e5:2 | e5:4 g5:2 e5 c5:8 | d5:4 b4:2 d5 g5:6 f5:2 | e5:4 c5 g4:8 |
a4:2 c5 f5 a5 c6:4 a5 | g5:2 e5 c5 e5 g5:8 | f5:4 d5:2 f5 a5:4 f5 | g#5:4 e5 b4 g#4 |";

const KOROBEINIKI_BRIDGE_CHORDS: &str = "F F | C C | G G | C C | F F | C C | Dm Dm | E E |";

/// MUSIC 1.
pub const KOROBEINIKI: TuneText = TuneText {
    name: "korobeiniki",
    form: &[
        Section {
            melody: KOROBEINIKI_VERSE,
            chords: KOROBEINIKI_CHORDS,
            drums: "k:2 h s h k h s h",
        },
        Section {
            melody: KOROBEINIKI_VERSE,
            chords: KOROBEINIKI_CHORDS,
            drums: "k:2 h s h k k s h",
        },
        Section {
            melody: KOROBEINIKI_BRIDGE,
            chords: KOROBEINIKI_BRIDGE_CHORDS,
            drums: "k:4 s k:2 h s:4",
        },
        Section {
            melody: KOROBEINIKI_VERSE,
            chords: KOROBEINIKI_CHORDS,
            drums: "k:2 h s h k h s s",
        },
    ],
    frames_per_step: [6, 4],
    looping: true,
};

// ---------------------------------------------------------------------------------------
// MUSIC 2: "Garden of Blocks", original, F major: a bouncing A, a wider B in D minor,
// A again.

const GARDEN_A: &str = "\
f4:2 a4 c5:4 a4:2 c5 f5:4 | e5:2 d5 c5 d5 e5:4 g4 | a4:2 d5 f5:4 e5:2 d5 c5 a4 |
a#4:4 d5:2 c5 e4:4 g4 | f4:2 a4 c5:4 a4:2 c5 f5 g5 | a5:4 g5:2 f5 e5:4 c5 |
e5:2 c5 a4 c5 d5 f5 a5:4 | g5:4 f5:2 e5 d5 c5 e5:4 |";

const GARDEN_A_CHORDS: &str = "F F | C C | Dm Dm | Bb C | F F | Gm C | Am Dm | Gm C |";

const GARDEN_B: &str = "\
d5:6 f5:2 a5:4 f5 | d5:6 f5:2 a#5:4 a5 | c6:4 a5:2 f5 c5:4 f5 | e5:6 d5:2 c5:4 r |
d5:2 e5 f5 a5 d6:4 a5 | a#5:2 a5 f5 d5 f5:4 a#4 | g4:2 a#4 d5 g5 f5 e5 d5 a#4 |
c5:4 e5 g5 c5 |";

const GARDEN_B_CHORDS: &str = "Dm Dm | Bb Bb | F F | C C | Dm Dm | Bb Bb | Gm Gm | C C |";

/// MUSIC 2.
pub const GARDEN: TuneText = TuneText {
    name: "garden",
    form: &[
        Section {
            melody: GARDEN_A,
            chords: GARDEN_A_CHORDS,
            drums: "k:4 h:2 h s:4 h",
        },
        Section {
            melody: GARDEN_B,
            chords: GARDEN_B_CHORDS,
            drums: "k:2 h h h s h h h",
        },
        Section {
            melody: GARDEN_A,
            chords: GARDEN_A_CHORDS,
            drums: "k:4 h:2 h s:4 k:2 h",
        },
    ],
    frames_per_step: [6, 4],
    looping: true,
};

// ---------------------------------------------------------------------------------------
// MUSIC 3: "Night Shift", original, E minor: a syncopated A, a B over Am-D-G-Em ending
// on the dominant, A again.

const NIGHT_A: &str = "\
e5:3 b4 g4:2 b4 e5 f#5 g5 | e5:3 c5 g4:2 c5:4 e5 | d5:3 b4 g4:2 b4 d5 g5 a5 |
f#5:6 e5:2 d5:4 a4 | e5:3 b4 g4:2 b4 e5 f#5 g5 | a5:3 g5 e5:2 c5:4 g5 |
f#5:2 e5 c5 a4 b4 d#5 f#5:4 | e5:12 r:4 |";

const NIGHT_A_CHORDS: &str = "Em Em | C C | G G | D D | Em Em | C C | Am B | Em Em |";

const NIGHT_B: &str = "\
a4:2 c5 e5 a5:6 g5:2 e5 | f#5:2 e5 d5 a4:6 d5:2 f#5 | g5:4 d5:2 b4 g4:4 b4 |
e5:8 b4:4 g4 | a4:2 c5 e5 a5:6 b5:2 c6 | a5:4 f#5:2 d5 a4:4 d5 |
e5:2 g5 c6:4 b5:2 a5 g5 e5 | d#5:4 f#5 b5:8 |";

const NIGHT_B_CHORDS: &str = "Am Am | D D | G G | Em Em | Am Am | D D | C C | B B |";

/// MUSIC 3.
pub const NIGHT: TuneText = TuneText {
    name: "night-shift",
    form: &[
        Section {
            melody: NIGHT_A,
            chords: NIGHT_A_CHORDS,
            drums: "k:3 h:3 s:2 k:2 h:2 s:2 h:2",
        },
        Section {
            melody: NIGHT_B,
            chords: NIGHT_B_CHORDS,
            drums: "k:3 k:3 s:2 h:2 k:2 s:4",
        },
        Section {
            melody: NIGHT_A,
            chords: NIGHT_A_CHORDS,
            drums: "k:3 h:3 s:2 k:2 h:2 s:2 s:2",
        },
    ],
    frames_per_step: [5, 3],
    looping: true,
};

// ---------------------------------------------------------------------------------------
// The other screens' music, original: the B-type goal's fanfare (once), the name entry,
// the endings.

/// The B-type goal reached: a two-bar fanfare in C, played once.
pub const GOAL: TuneText = TuneText {
    name: "goal",
    form: &[Section {
        melody: "c5:2 e5 g5 c6 r g5 c6:4 | e6:12 r:4 |",
        chords: "C C | C C |",
        drums: "k:2 k k k r k s:4 | s:12 r:4",
    }],
    frames_per_step: [5, 5],
    looping: false,
};

/// High-score name entry: a calm loop in G major.
pub const HIGH_SCORE: TuneText = TuneText {
    name: "high-score",
    form: &[Section {
        melody: "\
b4:4 d5 g5:6 f#5:2 | e5:4 g5 b4:8 | c5:4 e5:2 g5 c6:4 b5 | a5:8 f#5:4 d5 |
b4:2 d5 g5 b5 d6:4 b5 | g5:4 e5:2 g5 b5:8 | a5:2 g5 e5 c5 d5 f#5 a5:4 | g5:12 r:4 |",
        chords: "G G | Em Em | C C | D D | G G | Em Em | Am D | G G |",
        drums: "",
    }],
    frames_per_step: [8, 8],
    looping: true,
};

/// The endings: a bright loop in C major.
pub const ENDING: TuneText = TuneText {
    name: "ending",
    form: &[Section {
        melody: "\
e5:4 g5 c6:8 | a5:4 e5 c5:8 | f5:2 a5 c6 a5 f5:4 c5 | d5:4 g5 b5:8 |
c6:4 b5:2 a5 g5:4 e5 | a5:4 c6 e6:8 | d6:2 c6 a5 f5 g5 b5 d6:4 | c6:12 r:4 |",
        chords: "C C | Am Am | F F | G G | C C | Am Am | F G | C C |",
        drums: "k:4 h s h",
    }],
    frames_per_step: [7, 7],
    looping: true,
};

/// Every tune, in [`crate::music::Piece`]'s order.
pub const ALL: [TuneText; 6] = [KOROBEINIKI, GARDEN, NIGHT, GOAL, HIGH_SCORE, ENDING];
