//! LLC2 connection ends (every variant) driven by the simulation runner, which checks
//! exactly-once in-order delivery and counter balance itself (a violation is a
//! `SimError`): random loss and corruption of any frame (I frames, RRs, REJ/SREJs,
//! polls) for a while, then an error-free drain after which every message is delivered
//! and acknowledged. The bridged-ring version (losses at full bridge buffers) is in
//! `biersack.rs`.

mod common;

use arqlab::engine::SimTime;
use arqlab::protocol::llc2::{Llc2, Llc2Config, Variant};
use arqlab::sim::runner::{run, Windows};
use common::{drained, lossy, Log, Loss};
use proptest::prelude::*;
use std::rc::Rc;

const VARIANTS: [Variant; 6] = [Variant::Orig, Variant::Bg, Variant::Jain, Variant::Srej, Variant::MultiFifo, Variant::MultiSrej];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn prop_llc2_delivers_exactly_once_in_order_after_random_loss(
        variant in 0usize..6, window in 1u32..20, n in 1u32..10, fifo in 1u32..6, resets in any::<bool>(),
        n3 in 1u32..4, t1_factor in 1.1f64..4.0, two_way in any::<bool>(), bits in 50u32..4000, delay_s in 0.0f64..0.2,
        p_data in 0.0f64..0.4, p_ack in 0.0f64..0.4, burst in any::<bool>(), vanish in 0.0f64..1.0,
        errors_s in 20.0f64..50.0, seed in any::<u64>(), processing in proptest::option::of(0.0f64..0.02), rej_after_discard in any::<bool>(),
        s_processing in proptest::option::of(0.0f64..0.02),
    ) {
        let frame_s = (bits as f64 + 32.0) / 48_000.0;
        let round = 2.0 * frame_s + 2.0 * delay_s + 0.01;
        let c = Llc2Config {
            variant: VARIANTS[variant], window, n, fifo_buffers: fifo, t1_resets_window: resets, n3,
            t1_s: t1_factor * round, reject_timer_s: 2.0 * t1_factor * round, ack_delay_s: round / 4.0,
            processing_s: processing.unwrap_or(0.0), s_processing_s: s_processing, rej_after_discard,
            ..Llc2Config::default()
        };
        let load = 0.2 * (window as f64 * frame_s / (frame_s + 2.0 * delay_s)).min(1.0);
        let (ta, tb) = (common::poisson(load, bits), if two_way { common::poisson(load, bits) } else { common::NONE.to_string() });
        let sc = common::scenario(delay_s, &ta, &tb);
        let errors_end = SimTime::from_secs_f64(errors_s);
        let loss = Loss { p_data, p_ack, burst, vanish };
        let logs = [Rc::new(Log::default()), Rc::new(Log::default())];
        let end = SimTime::from_secs_f64(errors_s + 600.0);
        let out = run(&sc, seed, 0, &Windows::equal(SimTime::ZERO, end, 1), None, |_, s| {
            let i = s.index();
            lossy(Llc2::new(&c), loss, seed ^ (i as u64 + 1) * 0x5851_f42d, errors_end, logs[i].clone())
        })
        .unwrap_or_else(|e| panic!("{c:?}: {e}"));
        drained(&out, &logs).map_err(|e| TestCaseError::fail(format!("{c:?}: {e}")))?;
    }
}
