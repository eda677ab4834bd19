//! CPU time of the benchmarking thread as a criterion measurement: the machines these
//! benchmarks run on are shared, and wall time counts the neighbours' work too. Reported
//! throughput is events per CPU-second.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::Throughput;

/// `CLOCK_THREAD_CPUTIME_ID` in nanoseconds.
pub struct CpuTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical_ns {
            t if t < 1e3 => (1.0, "ns CPU"),
            t if t < 1e6 => (1e-3, "µs CPU"),
            t if t < 1e9 => (1e-6, "ms CPU"),
            _ => (1e-9, "s CPU"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    /// Elements (events) per CPU-second, in millions.
    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Bits(n) => n as f64,
        };
        values.iter_mut().for_each(|v| *v = per * 1e9 / *v / 1e6);
        "M events/CPU-s"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}
