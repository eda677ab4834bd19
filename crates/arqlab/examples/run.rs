//! Runs a scenario file and prints its measures: `cargo run --release --example run -- FILE`.
use arqlab::scenario::Scenario;
use arqlab::sim::run_experiment;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "scenarios/go_back_n.toml".into());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let sc = match Scenario::from_toml(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}:\n{e}");
            std::process::exit(2);
        }
    };
    let t0 = std::time::Instant::now();
    match run_experiment(&sc, 1, None, None) {
        Ok(x) => {
            let wall = t0.elapsed().as_secs_f64();
            let events: u64 = x.records.iter().map(|r| r.events).sum();
            let sim: f64 = x.records.iter().map(|r| r.simulated_s).sum();
            for (d, ms) in &x.metrics {
                for (m, iv) in ms {
                    println!("{d:7} {m:28} {:>14.6} ± {:.6} (n={})", iv.mean, iv.half_width, iv.n);
                }
            }
            println!("events {events}, simulated {sim:.0} s, wall {wall:.3} s: {:.1} M events/s, {:.0} simulated s per wall s", events as f64 / wall / 1e6, sim / wall);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
