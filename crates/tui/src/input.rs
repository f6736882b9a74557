//! Which NES buttons are held, from the terminal's key events.
//!
//! With the kitty keyboard protocol the terminal reports presses and releases, and a key
//! is held from one to the other. Without it a terminal only sends a press and then its
//! own auto-repeat, so holding has to be estimated, and DAS and soft drop depend on it:
//!
//! - a fresh press counts as held for [`TAP_HOLD`] (100 ms, about a human tap): shorter
//!   than the DAS charge (16 frames = 267 ms NTSC, 12 = 240 ms PAL), so a tap shifts
//!   once, and longer than common repeat intervals (30-90 ms), so the repeat stream joins
//!   up without gaps;
//! - an event for a key that is still held, or came within [`REPEAT_HOLD`] of the key's
//!   previous event, is taken as auto-repeat and keeps it held until [`REPEAT_HOLD`]
//!   (150 ms) after it.
//!
//! The cost: the terminal's repeat delay (250-660 ms) outlasts a tap, so holding a
//! direction moves once, pauses for that delay, moves again and only then charges DAS.
//! Holding every key until the repeat delay passed instead (550 ms) would turn every tap
//! of Left into three or four moves, which is worse.
//!
//! A press that arrives and ends between two frames is latched for one sample, so the
//! game sees every tap.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, ModifierKeyCode};
use nestris_core::Buttons;

/// How long a fresh press counts as held when releases are not reported.
pub const TAP_HOLD: Duration = Duration::from_millis(100);

/// How long a repeated key counts as held after its last event when releases are not reported.
pub const REPEAT_HOLD: Duration = Duration::from_millis(150);

/// Whether the terminal reports key releases.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HoldMode {
    /// Press, repeat and release events (kitty keyboard protocol).
    Reported,
    /// Presses only: holding is estimated from the terminal's key repeat.
    Estimated,
}

/// The physical keys that act as NES buttons, with their buttons.
const KEYS: [Buttons; 9] = [
    Buttons::LEFT,
    Buttons::RIGHT,
    Buttons::UP,
    Buttons::DOWN,
    Buttons::A,      // X
    Buttons::B,      // Z
    Buttons::START,  // Enter
    Buttons::SELECT, // Tab
    Buttons::SELECT, // Right Shift
];

/// Index into [`KEYS`] of the key an event is about, if it is a game key.
fn key_index(ev: &KeyEvent) -> Option<usize> {
    // Ctrl-X or Alt-Z are not game input; a release must still count whatever is held.
    if ev.kind != KeyEventKind::Release
        && ev
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    Some(match ev.code {
        KeyCode::Left => 0,
        KeyCode::Right => 1,
        KeyCode::Up => 2,
        KeyCode::Down => 3,
        KeyCode::Char('x' | 'X') => 4,
        KeyCode::Char('z' | 'Z') => 5,
        KeyCode::Enter => 6,
        KeyCode::Tab | KeyCode::BackTab => 7,
        KeyCode::Modifier(ModifierKeyCode::RightShift) => 8,
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// Reported mode: between press and release.
    down: bool,
    /// Estimated mode: held until this instant.
    until: Option<Instant>,
    /// Estimated mode: the key's last press or repeat.
    last_event: Option<Instant>,
    /// Pressed since the last sample.
    latched: bool,
    /// Held across the quit dialog: ignored until released.
    suppressed: bool,
}

impl Slot {
    fn is_held(&self, mode: HoldMode, now: Instant) -> bool {
        match mode {
            HoldMode::Reported => self.down,
            HoldMode::Estimated => self.until.is_some_and(|u| now < u),
        }
    }
}

/// The held state of the game keys.
#[derive(Clone, Debug)]
pub struct KeyState {
    mode: HoldMode,
    slots: [Slot; KEYS.len()],
}

impl KeyState {
    /// No key held.
    pub fn new(mode: HoldMode) -> KeyState {
        KeyState {
            mode,
            slots: [Slot::default(); KEYS.len()],
        }
    }

    /// Feeds one key event that arrived at `now`; true if it was a game key.
    pub fn on_key(&mut self, ev: &KeyEvent, now: Instant) -> bool {
        let Some(i) = key_index(ev) else {
            return false;
        };
        let slot = &mut self.slots[i];
        let held = slot.is_held(self.mode, now);
        if ev.kind == KeyEventKind::Release {
            slot.down = false;
            slot.until = None;
            slot.suppressed = false;
            return true;
        }
        let fresh = match self.mode {
            HoldMode::Reported => {
                slot.down = true;
                !held && ev.kind == KeyEventKind::Press
            }
            HoldMode::Estimated => {
                let recent = slot.last_event.is_some_and(|t| now - t <= REPEAT_HOLD);
                let repeat = held || recent;
                slot.until = Some(now + if repeat { REPEAT_HOLD } else { TAP_HOLD });
                slot.last_event = Some(now);
                !repeat
            }
        };
        if fresh {
            slot.latched = true;
            slot.suppressed = false;
        }
        true
    }

    /// Forgets every key (the terminal lost focus, so releases will not arrive).
    pub fn release_all(&mut self) {
        self.slots = [Slot::default(); KEYS.len()];
    }

    /// Ignores the keys held at `now` until they are released, so that keys held while
    /// the quit dialog was up do not reach the game as fresh presses when it goes on.
    pub fn suppress_held(&mut self, now: Instant) {
        for slot in &mut self.slots {
            slot.latched = false;
            if slot.is_held(self.mode, now) {
                slot.suppressed = true;
            }
        }
    }

    /// The buttons held for the frame that starts at `now`; clears the latches.
    pub fn sample(&mut self, now: Instant) -> Buttons {
        let mut buttons = Buttons::NONE;
        for (slot, button) in self.slots.iter_mut().zip(KEYS) {
            let held = slot.is_held(self.mode, now);
            if !held {
                slot.suppressed = false;
            }
            if (held || slot.latched) && !slot.suppressed {
                buttons |= button;
            }
            slot.latched = false;
        }
        buttons
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    fn ev(code: KeyCode, kind: KeyEventKind) -> KeyEvent {
        KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind,
            state: KeyEventState::NONE,
        }
    }

    fn press(code: KeyCode) -> KeyEvent {
        ev(code, KeyEventKind::Press)
    }

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn reported_mode_holds_from_press_to_release() {
        let t = Instant::now();
        let mut k = KeyState::new(HoldMode::Reported);
        assert!(k.on_key(&press(KeyCode::Left), t));
        assert!(k.on_key(&press(KeyCode::Char('x')), t));
        assert_eq!(k.sample(t), Buttons::LEFT | Buttons::A);
        // Held for as long as no release comes, however long that is.
        assert_eq!(k.sample(t + 5000 * MS), Buttons::LEFT | Buttons::A);
        k.on_key(&ev(KeyCode::Char('X'), KeyEventKind::Release), t);
        assert_eq!(k.sample(t), Buttons::LEFT);
        assert!(!k.on_key(&press(KeyCode::Char('q')), t));
    }

    #[test]
    fn a_tap_between_two_frames_is_seen_once() {
        let t = Instant::now();
        let mut k = KeyState::new(HoldMode::Reported);
        k.on_key(&press(KeyCode::Enter), t);
        k.on_key(&ev(KeyCode::Enter, KeyEventKind::Release), t + MS);
        assert_eq!(k.sample(t + 2 * MS), Buttons::START);
        assert_eq!(k.sample(t + 18 * MS), Buttons::NONE);
    }

    #[test]
    fn estimated_mode_taps_briefly_and_holds_through_repeats() {
        let t = Instant::now();
        let mut k = KeyState::new(HoldMode::Estimated);
        k.on_key(&press(KeyCode::Down), t);
        assert_eq!(k.sample(t + 50 * MS), Buttons::DOWN);
        // A tap ends after TAP_HOLD, well before DAS would charge.
        assert_eq!(k.sample(t + 101 * MS), Buttons::NONE);
        // The terminal's first repeat after its delay: a new press, then repeats join up.
        let r = t + 500 * MS;
        k.on_key(&press(KeyCode::Down), r);
        for i in 1..20 {
            k.on_key(&press(KeyCode::Down), r + i * 90 * MS);
            assert_eq!(k.sample(r + i * 90 * MS + 80 * MS), Buttons::DOWN);
        }
        // No more repeats: released REPEAT_HOLD after the last one.
        let last = r + 19 * 90 * MS;
        assert_eq!(k.sample(last + 149 * MS), Buttons::DOWN);
        assert_eq!(k.sample(last + 151 * MS), Buttons::NONE);
    }

    #[test]
    fn held_keys_are_suppressed_until_released() {
        let t = Instant::now();
        let mut k = KeyState::new(HoldMode::Reported);
        k.on_key(&press(KeyCode::Enter), t);
        k.suppress_held(t);
        assert_eq!(k.sample(t), Buttons::NONE);
        k.on_key(&ev(KeyCode::Enter, KeyEventKind::Repeat), t + 30 * MS);
        assert_eq!(k.sample(t + 30 * MS), Buttons::NONE);
        k.on_key(&ev(KeyCode::Enter, KeyEventKind::Release), t + 40 * MS);
        k.on_key(&press(KeyCode::Enter), t + 60 * MS);
        assert_eq!(k.sample(t + 60 * MS), Buttons::START);

        let mut e = KeyState::new(HoldMode::Estimated);
        e.on_key(&press(KeyCode::Enter), t);
        e.suppress_held(t);
        assert_eq!(e.sample(t + 10 * MS), Buttons::NONE);
        e.on_key(&press(KeyCode::Enter), t + 1000 * MS);
        assert_eq!(e.sample(t + 1000 * MS), Buttons::START);
    }

    #[test]
    fn select_has_two_keys_and_modified_letters_are_not_buttons() {
        let t = Instant::now();
        let mut k = KeyState::new(HoldMode::Reported);
        k.on_key(&press(KeyCode::Tab), t);
        k.on_key(&press(KeyCode::Modifier(ModifierKeyCode::RightShift)), t);
        k.on_key(&ev(KeyCode::Tab, KeyEventKind::Release), t);
        assert_eq!(k.sample(t), Buttons::SELECT);
        let mut ctrl_x = press(KeyCode::Char('x'));
        ctrl_x.modifiers = KeyModifiers::CONTROL;
        assert!(!k.on_key(&ctrl_x, t));
        k.release_all();
        assert_eq!(k.sample(t), Buttons::NONE);
    }
}
