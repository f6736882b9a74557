//! Taking over the terminal and giving it back, also when the program panics.
//!
//! Raw mode, the alternate screen, a hidden cursor, focus reports and (where the terminal
//! has it) the kitty keyboard protocol are undone by the guard's `Drop` and by a panic
//! hook, whichever comes first; the hook then hands over to the previous one, so the panic
//! message lands on a usable terminal.

use std::io::{self, stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    DisableFocusChange, EnableFocusChange, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, supports_keyboard_enhancement, EnterAlternateScreen,
    LeaveAlternateScreen,
};

use crate::input::HoldMode;

/// The terminal is in our modes and must be restored.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// The kitty keyboard flags were pushed and must be popped.
static KEYBOARD_PUSHED: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// Holds the terminal in play mode; restores it when dropped.
#[derive(Debug)]
pub struct TerminalGuard {
    hold_mode: HoldMode,
}

impl TerminalGuard {
    /// Switches the terminal to raw mode on the alternate screen and asks for key releases.
    pub fn enter() -> io::Result<TerminalGuard> {
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
        });
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        // From here on an error return drops the guard, which restores the terminal.
        let mut guard = TerminalGuard {
            hold_mode: HoldMode::Estimated,
        };
        let mut out = stdout();
        execute!(out, EnterAlternateScreen, Hide, EnableFocusChange)?;
        if supports_keyboard_enhancement().unwrap_or(false) {
            // Modifier keys (Right Shift) and the releases of Enter and Tab are reported
            // only when every key is sent as an escape code.
            execute!(
                out,
                PushKeyboardEnhancementFlags(
                    KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                        | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
                        | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES
                )
            )?;
            KEYBOARD_PUSHED.store(true, Ordering::SeqCst);
            guard.hold_mode = HoldMode::Reported;
        }
        Ok(guard)
    }

    /// Whether the terminal reports key releases.
    pub fn hold_mode(&self) -> HoldMode {
        self.hold_mode
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Undoes [`TerminalGuard::enter`] once; errors are ignored since nothing better can be done.
fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = stdout();
    if KEYBOARD_PUSHED.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(out, DisableFocusChange, LeaveAlternateScreen, Show);
    let _ = out.flush();
    let _ = disable_raw_mode();
}
