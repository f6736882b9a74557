//! The keyboard as controller 1: which keys are held, sampled once per frame.
//!
//! The window reports each physical key's press and release. OS key repeat is ignored
//! (a repeated press says nothing new: the key is still held). A key held at a frame's
//! sample is that button held in that frame; a key pressed and released between two
//! samples is latched and still counts as held for one frame, so no tap is lost.
//! Non-game keys bound in the config (quit, mute, music, fullscreen) come back as
//! [`Command`]s on their press.

use nestris_core::Buttons;
use winit::keyboard::KeyCode;

use crate::config::KeyBindings;

/// A front-end action bound to a key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Command {
    /// Quit (the game asks first while a game is in play).
    Quit,
    /// Sound on/off.
    Mute,
    /// Music on/off.
    Music,
    /// Borderless fullscreen on/off.
    Fullscreen,
    /// Save a savestate in slot `n` (from 0).
    SaveState(u8),
    /// Load the savestate in slot `n` (from 0).
    LoadState(u8),
    /// Step back in time while held ([`Keyboard::command_held`]).
    Rewind,
    /// Stop or restart the game's clock.
    Freeze,
    /// While frozen: one frame.
    Advance,
    /// The seed entry (on the level menu).
    Seed,
    /// The coach on or off.
    Coach,
    /// The board editor (from the level menu), or back to it from the game it started.
    Editor,
    /// The versus setup screen (from the title screen).
    Versus,
}

/// What one key does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binding {
    Button(Buttons),
    Command(Command),
}

/// The keys bound to NES buttons and front-end commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMap {
    bindings: Vec<(KeyCode, Binding)>,
}

impl KeyMap {
    /// The map a config file describes.
    pub fn new(keys: &KeyBindings) -> KeyMap {
        let mut bindings = Vec::new();
        let buttons: [(&Vec<KeyCode>, Buttons); 8] = [
            (&keys.up, Buttons::UP),
            (&keys.down, Buttons::DOWN),
            (&keys.left, Buttons::LEFT),
            (&keys.right, Buttons::RIGHT),
            (&keys.a, Buttons::A),
            (&keys.b, Buttons::B),
            (&keys.start, Buttons::START),
            (&keys.select, Buttons::SELECT),
        ];
        for (list, button) in buttons {
            bindings.extend(list.iter().map(|&k| (k, Binding::Button(button))));
        }
        let commands: [(&Vec<KeyCode>, Command); 11] = [
            (&keys.quit, Command::Quit),
            (&keys.mute, Command::Mute),
            (&keys.music, Command::Music),
            (&keys.fullscreen, Command::Fullscreen),
            (&keys.rewind, Command::Rewind),
            (&keys.freeze, Command::Freeze),
            (&keys.advance, Command::Advance),
            (&keys.seed, Command::Seed),
            (&keys.coach, Command::Coach),
            (&keys.editor, Command::Editor),
            (&keys.versus, Command::Versus),
        ];
        for (list, command) in commands {
            bindings.extend(list.iter().map(|&k| (k, Binding::Command(command))));
        }
        // One key per slot, in slot order (the config allows at most 9).
        for (slot, &k) in (0u8..).zip(&keys.save) {
            bindings.push((k, Binding::Command(Command::SaveState(slot))));
        }
        for (slot, &k) in (0u8..).zip(&keys.load) {
            bindings.push((k, Binding::Command(Command::LoadState(slot))));
        }
        KeyMap { bindings }
    }

    /// The NES buttons `key` is bound to (several bindings may share a key).
    pub fn buttons(&self, key: KeyCode) -> Buttons {
        let mut b = Buttons::NONE;
        for &(k, binding) in &self.bindings {
            if let (true, Binding::Button(button)) = (k == key, binding) {
                b |= button;
            }
        }
        b
    }

    /// The command `key` is bound to, if any.
    pub fn command(&self, key: KeyCode) -> Option<Command> {
        self.bindings
            .iter()
            .find_map(|&(k, binding)| match binding {
                Binding::Command(c) if k == key => Some(c),
                _ => None,
            })
    }
}

/// The keyboard's state between two frame samples.
#[derive(Clone, Debug)]
pub struct Keyboard {
    map: KeyMap,
    held: Vec<KeyCode>,
    latched: Buttons,
}

impl Keyboard {
    /// No key held.
    pub fn new(map: KeyMap) -> Keyboard {
        Keyboard {
            map,
            held: Vec::new(),
            latched: Buttons::NONE,
        }
    }

    /// Feeds one key event. `repeat` events (the OS's auto-repeat) are ignored. Returns
    /// the command bound to the key when it was freshly pressed.
    pub fn on_key(&mut self, key: KeyCode, pressed: bool, repeat: bool) -> Option<Command> {
        if repeat {
            return None;
        }
        if !pressed {
            self.held.retain(|&k| k != key);
            return None;
        }
        if self.held.contains(&key) {
            // A press we already know of (some systems send one again): nothing new.
            return None;
        }
        self.held.push(key);
        self.latched |= self.map.buttons(key);
        self.map.command(key)
    }

    /// Forgets every key (the window lost focus, so their releases will not arrive).
    pub fn release_all(&mut self) {
        self.held.clear();
        self.latched = Buttons::NONE;
    }

    /// True while `key` is down.
    pub fn is_down(&self, key: KeyCode) -> bool {
        self.held.contains(&key)
    }

    /// True while a key bound to `command` is down (a held command such as rewind).
    pub fn command_held(&self, command: Command) -> bool {
        self.held
            .iter()
            .any(|&k| self.map.command(k) == Some(command))
    }

    /// The buttons for this frame: those held now, plus any pressed since the last
    /// sample even if already released. Clears the latches.
    pub fn sample(&mut self) -> Buttons {
        let mut b = self.latched;
        for &k in &self.held {
            b |= self.map.buttons(k);
        }
        self.latched = Buttons::NONE;
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn keyboard() -> Keyboard {
        Keyboard::new(KeyMap::new(&Config::default().keys))
    }

    #[test]
    fn the_default_keys() {
        let m = KeyMap::new(&Config::default().keys);
        assert_eq!(m.buttons(KeyCode::ArrowLeft), Buttons::LEFT);
        assert_eq!(m.buttons(KeyCode::ArrowRight), Buttons::RIGHT);
        assert_eq!(m.buttons(KeyCode::ArrowUp), Buttons::UP);
        assert_eq!(m.buttons(KeyCode::ArrowDown), Buttons::DOWN);
        assert_eq!(m.buttons(KeyCode::KeyX), Buttons::A);
        assert_eq!(m.buttons(KeyCode::KeyZ), Buttons::B);
        assert_eq!(m.buttons(KeyCode::Enter), Buttons::START);
        assert_eq!(m.buttons(KeyCode::ShiftRight), Buttons::SELECT);
        assert_eq!(m.buttons(KeyCode::Tab), Buttons::SELECT);
        assert_eq!(m.buttons(KeyCode::KeyQ), Buttons::NONE);
        assert_eq!(m.command(KeyCode::Escape), Some(Command::Quit));
        assert_eq!(m.command(KeyCode::KeyM), Some(Command::Mute));
        assert_eq!(m.command(KeyCode::KeyJ), Some(Command::Music));
        assert_eq!(m.command(KeyCode::F11), Some(Command::Fullscreen));
        assert_eq!(m.command(KeyCode::KeyX), None);
        assert_eq!(m.command(KeyCode::F1), Some(Command::SaveState(0)));
        assert_eq!(m.command(KeyCode::F4), Some(Command::SaveState(3)));
        assert_eq!(m.command(KeyCode::F5), Some(Command::LoadState(0)));
        assert_eq!(m.command(KeyCode::Backspace), Some(Command::Rewind));
        assert_eq!(m.command(KeyCode::KeyS), Some(Command::Seed));
    }

    #[test]
    fn rewind_is_held() {
        let mut k = keyboard();
        assert!(!k.command_held(Command::Rewind));
        assert_eq!(
            k.on_key(KeyCode::Backspace, true, false),
            Some(Command::Rewind)
        );
        assert!(k.command_held(Command::Rewind));
        assert_eq!(k.sample(), Buttons::NONE, "no NES button");
        k.on_key(KeyCode::Backspace, false, false);
        assert!(!k.command_held(Command::Rewind));
    }

    #[test]
    fn remapped_keys_follow_the_config() {
        let mut c = Config::default();
        c.keys.a = vec![KeyCode::Space, KeyCode::KeyX];
        c.keys.b = vec![KeyCode::KeyX];
        let m = KeyMap::new(&c.keys);
        assert_eq!(m.buttons(KeyCode::Space), Buttons::A);
        // One key may press two buttons at once.
        assert_eq!(m.buttons(KeyCode::KeyX), Buttons::A | Buttons::B);
    }

    #[test]
    fn held_from_press_to_release() {
        let mut k = keyboard();
        k.on_key(KeyCode::ArrowLeft, true, false);
        k.on_key(KeyCode::KeyX, true, false);
        assert_eq!(k.sample(), Buttons::LEFT | Buttons::A);
        assert_eq!(k.sample(), Buttons::LEFT | Buttons::A);
        k.on_key(KeyCode::KeyX, false, false);
        assert_eq!(k.sample(), Buttons::LEFT);
        assert!(k.is_down(KeyCode::ArrowLeft));
    }

    #[test]
    fn a_tap_between_two_frames_counts_for_one_frame() {
        let mut k = keyboard();
        k.on_key(KeyCode::Enter, true, false);
        k.on_key(KeyCode::Enter, false, false);
        assert_eq!(k.sample(), Buttons::START);
        assert_eq!(k.sample(), Buttons::NONE);
    }

    #[test]
    fn os_repeat_is_ignored() {
        let mut k = keyboard();
        k.on_key(KeyCode::ArrowDown, true, false);
        assert_eq!(k.sample(), Buttons::DOWN);
        // Repeats neither press again nor release.
        assert_eq!(k.on_key(KeyCode::ArrowDown, true, true), None);
        assert_eq!(k.sample(), Buttons::DOWN);
        k.on_key(KeyCode::ArrowDown, false, false);
        assert_eq!(k.on_key(KeyCode::ArrowDown, true, true), None);
        assert_eq!(k.sample(), Buttons::NONE);
        // A repeated Esc does not ask twice.
        assert_eq!(k.on_key(KeyCode::Escape, true, false), Some(Command::Quit));
        assert_eq!(k.on_key(KeyCode::Escape, true, true), None);
    }

    #[test]
    fn two_keys_for_one_button() {
        let mut k = keyboard();
        k.on_key(KeyCode::Tab, true, false);
        k.on_key(KeyCode::ShiftRight, true, false);
        k.on_key(KeyCode::Tab, false, false);
        assert_eq!(k.sample(), Buttons::SELECT, "still held by Right Shift");
        k.release_all();
        assert_eq!(k.sample(), Buttons::NONE);
    }
}
