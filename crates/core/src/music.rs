//! Which of the cartridge's music plays in a state: the question a front end asks to play
//! its own tunes at the moments the cartridge plays its own.
//!
//! The cartridge asks for a track by writing `musicTrack` (`setMusicTrack`) and stops all
//! sound with `updateAudio2`; the engine here keeps the variables those writes depend on
//! (`musicType`, `allegro`, the screens' steps), so the answer is read from the state
//! alone, the same after any frame, a seek or a loaded save state. Who writes what:
//!
//! | when | the cartridge | [`Music`] |
//! |---|---|---|
//! | legal screen, title, level menu, demo | `updateAudio2` (the demo overrides any track with $FF) | silent |
//! | game-type menu, once set up; Up/Down | `musicSelectionTable[musicType]` | the chosen music, or silent for OFF |
//! | game init's last step | the same | the chosen music |
//! | a lock leaves a block in row 5 or clears it (`allegro`) | `musicSelectionTable[musicType + 4]`, or back | its fast version, or back |
//! | pause | `musicStagingNoiseHi` = 5: the music holds, the pause tune plays | held |
//! | top out | `updateAudio2` | silent |
//! | B-type goal reached | track 2 | the goal tune |
//! | an ending, once set up | track 10 | the ending tune |
//! | high-score entry | track 9 | the high-score tune |
//!
//! A switch of track starts the new one from its beginning (`loadMusicTrack`), the fast
//! version included; a resumed pause goes on where it held.

use crate::flow::{EndingStep, Resume};
use crate::view::{GameMode, PlayState};
use crate::Snapshot;

/// One of the cartridge's pieces of music (its `musicTrack` numbers in brackets).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Track {
    /// The music chosen on the game-type menu: `music` 0..=2 is MUSIC 1-3 (tracks 3-5),
    /// `fast` its version for a high stack (tracks 6-8).
    Game {
        /// 0..=2: the menu's MUSIC 1, 2 or 3.
        music: u8,
        /// The fast version (`allegro`: a block in row 5 or above).
        fast: bool,
    },
    /// A B-type game's goal reached (track 2), played once.
    Goal,
    /// The high-score name entry (track 9).
    HighScore,
    /// The endings, A-type's rocket and B-type's stage (track 10).
    Ending,
}

/// What the music does in a state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Music {
    /// No music.
    Silent,
    /// `Track` plays.
    Playing(Track),
    /// `Track` holds where it was (the game is paused); it goes on when the pause ends.
    Held(Track),
}

impl Snapshot {
    /// The music the cartridge plays in this state (see the module's table).
    ///
    /// After an ending the cartridge lets the ending's music run on through the frame of
    /// the game-over reset when no high score follows; this answer is silent there, one
    /// frame early.
    pub fn music(&self) -> Music {
        let game = || match self.music_type {
            0..=2 => Some(Track::Game {
                music: self.music_type,
                fast: self.allegro != 0,
            }),
            _ => None,
        };
        let playing = |t: Option<Track>| t.map_or(Music::Silent, Music::Playing);
        match self.mode() {
            GameMode::Legal
            | GameMode::Title
            | GameMode::DemoStart
            | GameMode::LevelMenu
            | GameMode::Demo => Music::Silent,
            // Set after the menu's screen upload, at its normal tempo.
            GameMode::TypeMenu => match self.resume {
                Resume::TypeMenu => playing(game().map(|_| Track::Game {
                    music: self.music_type,
                    fast: false,
                })),
                _ => Music::Silent,
            },
            GameMode::Play => match self.resume {
                Resume::Halted | Resume::GameBackground(_) | Resume::GameInit { .. } => {
                    Music::Silent
                }
                Resume::Paused => game().map_or(Music::Silent, Music::Held),
                Resume::Ending(EndingStep::BannerSleep | EndingStep::DarkSleep) => {
                    Music::Playing(Track::Goal)
                }
                Resume::Ending(EndingStep::CurtainSleep) => Music::Silent,
                // The goal's tune runs on until the ending's screen is up; an ending
                // after a top out (30,000 points or more) follows the silence of the
                // curtain, whose play state stays until the game ends.
                Resume::Ending(EndingStep::Setup(_)) if self.phase() != PlayState::Curtain => {
                    Music::Playing(Track::Goal)
                }
                Resume::Ending(EndingStep::Setup(_)) => Music::Silent,
                Resume::Ending(_) => Music::Playing(Track::Ending),
                Resume::HighScoreSetup(_) | Resume::NameEntry | Resume::NameEntryDone => {
                    Music::Playing(Track::HighScore)
                }
                // Name entry leaves its screen's render mode up through the reset.
                Resume::GameOverReset if self.render_mode == 2 => Music::Playing(Track::HighScore),
                Resume::GameOverReset => Music::Silent,
                _ => match self.phase() {
                    PlayState::Curtain => Music::Silent,
                    // The frame an ending's Start ends the game: the ending's music.
                    PlayState::Ended if self.render_mode == 4 => Music::Playing(Track::Ending),
                    PlayState::Ended => Music::Silent,
                    _ => playing(game()),
                },
            },
        }
    }
}
