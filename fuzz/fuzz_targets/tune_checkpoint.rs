//! Fuzz target: any text given as a tune's checkpoint (`ai tune --checkpoint`) reads to a
//! state or an error of one line, never a panic; a state that reads writes back to text
//! that reads to the same state. A JSON object is read a second time with the settings of
//! the configuration's own checkpoint put in, so that the fuzzer reaches the state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::tune::{self, TuneConfig, TuneState};

fn check(text: &str, config: &TuneConfig) {
    match tune::read_checkpoint(text, config) {
        Ok(state) => {
            let again = tune::checkpoint_text(config, &state);
            assert_eq!(tune::read_checkpoint(&again, config), Ok(state));
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let config = TuneConfig::default();
    check(text, &config);
    if let Ok(serde_json::Value::Object(mut v)) = serde_json::from_str(text) {
        let own: serde_json::Value =
            serde_json::from_str(&tune::checkpoint_text(&config, &TuneState::start(&config)))
                .expect("a checkpoint is JSON");
        v.insert("config".into(), own["config"].clone());
        check(&serde_json::Value::Object(v).to_string(), &config);
    }
});
