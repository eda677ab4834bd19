//! PyO3 bindings for arqlab — thin: convert, call, convert back.
//!
//! Errors cross the boundary as standard Python exceptions that the pure-Python layer
//! (`arqlab.errors`) turns into arqlab's own: a scenario problem is a `ValueError` whose
//! single argument is the list of problems; a model failure or a Rust panic is a
//! `RuntimeError` naming the scenario, seed and replication (a run that stopped advancing
//! simulated time its subclass `LivelockError`). A panic never aborts Python.

use arqlab::engine::SimTime;
use arqlab::scenario::{toml_to_json, Scenario, ScenarioError};
use arqlab::sim::{replicate, MeasureSet, Replication};
use arqlab::stats::{paired_difference, select_batches, student_t, Interval, Precision, Status};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::panic::{catch_unwind, AssertUnwindSafe};

pyo3::create_exception!(
    _core,
    LivelockError,
    PyRuntimeError,
    "The run stopped advancing simulated time (a model bug: `sim::livelock`)."
);

fn scenario_error(e: ScenarioError) -> PyErr {
    PyValueError::new_err((e.problems(),))
}

fn parse_resolved(json: &str) -> PyResult<Scenario> {
    let v: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| PyValueError::new_err((vec![format!("scenario is not valid JSON: {e}")],)))?;
    Scenario::from_value(&v).map_err(scenario_error)
}

/// TOML text → JSON text of the same tree (syntax errors name the line and column).
#[pyfunction]
fn toml_to_json_text(text: &str) -> PyResult<String> {
    let v = toml_to_json(text).map_err(scenario_error)?;
    Ok(v.to_string())
}

/// Validates a scenario (JSON text) and returns the resolved scenario as JSON text.
#[pyfunction]
fn resolve(json: &str) -> PyResult<String> {
    Ok(parse_resolved(json)?.to_value().to_string())
}

fn measures_dict<'py>(py: Python<'py>, m: &MeasureSet) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in m.iter() {
        d.set_item(k, v)?;
    }
    Ok(d)
}

fn replication_dict<'py>(py: Python<'py>, r: &Replication) -> PyResult<Bound<'py, PyDict>> {
    let batches = PyList::empty(py);
    for b in &r.batches {
        let bd = PyDict::new(py);
        for (dir, m) in b {
            bd.set_item(dir.as_str(), measures_dict(py, m)?)?;
        }
        batches.append(bd)?;
    }
    let d = PyDict::new(py);
    d.set_item("batches", batches)?;
    d.set_item("events", r.events)?;
    d.set_item("simulated_s", r.simulated_s)?;
    d.set_item("wall_s", r.wall_s)?;
    d.set_item("fingerprint", &r.fingerprint)?;
    d.set_item("warmup_s", r.warmup_s)?;
    let acc = PyDict::new(py);
    for (dir, a) in &r.accounting {
        let x = PyDict::new(py);
        x.set_item("issued", a.issued)?;
        x.set_item("delivered", a.delivered)?;
        x.set_item("acknowledged", a.acknowledged)?;
        x.set_item("unacknowledged", a.unacknowledged)?;
        acc.set_item(dir.as_str(), x)?;
    }
    d.set_item("accounting", acc)?;
    if let Some(ok) = r.mser_reliable {
        d.set_item("mser_reliable", ok)?;
    }
    if let Some(s) = &r.stalled {
        let x = PyDict::new(py);
        x.set_item("flow", &s.flow)?;
        x.set_item("at_s", s.at_s)?;
        x.set_item("idle_s", s.idle_s)?;
        x.set_item("limit_s", s.limit_s)?;
        x.set_item("message", &s.message)?;
        d.set_item("stalled", x)?;
    }
    Ok(d)
}

/// Runs `f` on the scenario with the GIL released; a model failure or a panic becomes a
/// `RuntimeError` naming the scenario, seed and replication, an interrupt (see
/// [`request_interrupt`]) a `KeyboardInterrupt`.
fn guarded<T: Send>(
    py: Python<'_>,
    sc: &Scenario,
    seed: u64,
    replication: u64,
    f: impl FnOnce() -> Result<T, arqlab::sim::SimError> + Send,
) -> PyResult<T> {
    let outcome = py.allow_threads(|| catch_unwind(AssertUnwindSafe(f)));
    let context = || {
        let title = if sc.title.is_empty() {
            sc.protocol.kind().to_string()
        } else {
            sc.title.clone()
        };
        format!("scenario {title:?}, seed {seed}, replication {replication}")
    };
    match outcome {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(arqlab::sim::SimError::Interrupted)) => Err(PyKeyboardInterrupt::new_err(format!(
            "interrupted ({})",
            context()
        ))),
        Ok(Err(e @ arqlab::sim::SimError::Livelock(_))) => Err(LivelockError::new_err(format!(
            "simulation failed ({}): {e}",
            context()
        ))),
        Ok(Err(e)) => Err(PyRuntimeError::new_err(format!(
            "simulation failed ({}): {e}",
            context()
        ))),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in the simulator ({}): {msg}",
                context()
            )))
        }
    }
}

#[pyfunction]
fn run_replication<'py>(
    py: Python<'py>,
    resolved_json: &str,
    seed: u64,
    replication: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let sc = parse_resolved(resolved_json)?;
    let r = guarded(py, &sc, seed, replication, || {
        replicate(&sc, seed, replication)
    })?;
    replication_dict(py, &r)
}

/// The frame-level trace of one replication between `from_s` and `to_s` seconds, as
/// JSON text: {"records": [...], "dropped": n}.
#[pyfunction]
fn trace(
    py: Python<'_>,
    resolved_json: &str,
    seed: u64,
    replication: u64,
    from_s: f64,
    to_s: f64,
    limit: usize,
) -> PyResult<String> {
    let sc = parse_resolved(resolved_json)?;
    let (from, to) = (SimTime::from_secs_f64(from_s), SimTime::from_secs_f64(to_s));
    let t = guarded(py, &sc, seed, replication, || {
        arqlab::sim::trace(&sc, seed, replication, from, to, limit)
    })?;
    let v = serde_json::json!({"records": t.records, "dropped": t.dropped});
    Ok(v.to_string())
}

fn capture_flights(
    py: Python<'_>,
    sc: &Scenario,
    seed: u64,
    replication: u64,
    (from_s, to_s): (f64, f64),
    limit: usize,
) -> PyResult<arqlab::sim::capture::Flights> {
    use arqlab::sim::capture::{flights, CaptureError};
    let (from, to) = (SimTime::from_secs_f64(from_s), SimTime::from_secs_f64(to_s));
    let r = guarded(py, sc, seed, replication, || {
        match flights(sc, seed, replication, from, to, limit) {
            Err(CaptureError::Sim(e)) => Err(e),
            other => Ok(other),
        }
    })?;
    r.map_err(|e| PyValueError::new_err((vec![e.to_string()],)))
}

/// The frames sent in a window with their arrivals and FCS outcomes, and the timer
/// expiries, as JSON text (`arqlab::sim::capture::Flights`).
#[pyfunction]
fn flights(
    py: Python<'_>,
    resolved_json: &str,
    seed: u64,
    replication: u64,
    from_s: f64,
    to_s: f64,
    limit: usize,
) -> PyResult<String> {
    let sc = parse_resolved(resolved_json)?;
    let f = capture_flights(py, &sc, seed, replication, (from_s, to_s), limit)?;
    serde_json::to_string(&f).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// pcap captures of the frames sent in a window: one (interface, file bytes) per
/// observed interface with the link type it is written under (`linktype`, "sita" |
/// "lapb_with_dir", for HDLC families; the medium's own type for the others).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn pcap<'py>(
    py: Python<'py>,
    resolved_json: &str,
    seed: u64,
    replication: u64,
    from_s: f64,
    to_s: f64,
    limit: usize,
    linktype: &str,
) -> PyResult<Vec<(String, &'static str, Bound<'py, PyBytes>)>> {
    let input = |e: String| PyValueError::new_err((vec![e],));
    let link = arqlab::trace::pcap::LinkType::parse(linktype).map_err(input)?;
    let sc = parse_resolved(resolved_json)?;
    // Refuse an unencodable protocol before running anything.
    arqlab::sim::capture::interfaces(&sc).map_err(input)?;
    let f = capture_flights(py, &sc, seed, replication, (from_s, to_s), limit)?;
    let files = arqlab::sim::capture::pcap(&f, &sc, link).map_err(input)?;
    Ok(files.into_iter().map(|(name, link, bytes)| (name, link.name(), PyBytes::new(py, &bytes))).collect())
}

/// Asks every replication running in this process (in any thread) to stop within
/// about 2^16 events; they raise `KeyboardInterrupt`. Stays set until `clear_interrupt`.
#[pyfunction]
fn request_interrupt() {
    arqlab::sim::interrupt::request();
}

/// Withdraws an interrupt request (before new replications start).
#[pyfunction]
fn clear_interrupt() {
    arqlab::sim::interrupt::clear();
}

/// Whether an interrupt request is pending.
#[pyfunction]
fn interrupt_requested() -> bool {
    arqlab::sim::interrupt::requested()
}

fn interval_tuple(iv: Interval) -> (f64, f64, u64) {
    (iv.mean, iv.half_width, iv.n)
}

/// 95% Student-t interval (mean, half-width, n) over the finite values; with
/// `batch_means`, adjacent batches are merged while |lag-1| ≥ 0.1 (≥ 10 kept).
#[pyfunction]
#[pyo3(signature = (values, batch_means = false))]
fn interval(values: Vec<f64>, batch_means: bool) -> (f64, f64, u64) {
    let finite: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
    if batch_means {
        let (b, _) = select_batches(&finite, 10, 0.1);
        interval_tuple(student_t(&b, 0.95))
    } else {
        interval_tuple(student_t(&finite, 0.95))
    }
}

/// A 95% Student-t interval accumulated one observation at a time: the same Welford
/// tally `interval` builds from a list, so folding replications in order gives exactly
/// `interval`'s numbers without keeping the observations (constant memory for any count).
#[pyclass(module = "arqlab._core")]
#[derive(Default)]
struct RunningInterval {
    tally: arqlab::stats::Tally,
}

#[pymethods]
impl RunningInterval {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// Adds one observation; non-finite values are skipped, as `interval` skips them.
    fn add(&mut self, x: f64) {
        if x.is_finite() {
            self.tally.add(x);
        }
    }

    /// (mean, half-width, n) of the finite observations added so far.
    fn interval(&self) -> (f64, f64, u64) {
        interval_tuple(self.tally.interval(0.95))
    }
}

/// The sequential stopping rule over (mean, half-width, n) intervals:
/// "continue" | "reached" | "cap_reached".
#[pyfunction]
fn precision_status(
    intervals: Vec<(f64, f64, u64)>,
    relative: f64,
    min_n: u64,
    max_n: u64,
) -> &'static str {
    let rule = Precision {
        relative,
        min_n,
        max_n,
    };
    let ivs: Vec<Interval> = intervals
        .into_iter()
        .map(|(mean, half_width, n)| Interval {
            mean,
            half_width,
            n,
        })
        .collect();
    match rule.status(&ivs) {
        Status::Continue => "continue",
        Status::Reached => "reached",
        Status::CapReached => "cap_reached",
    }
}

/// Paired-t interval of a − b over replications run with common random numbers.
#[pyfunction]
fn paired_interval(a: Vec<f64>, b: Vec<f64>) -> PyResult<(f64, f64, u64)> {
    paired_difference(&a, &b, 0.95)
        .map(interval_tuple)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Package version + a hash of the simulator's source: the key results are stored under.
    m.add(
        "MODEL_VERSION",
        concat!(env!("CARGO_PKG_VERSION"), "+", env!("ARQLAB_MODEL_HASH")),
    )?;
    m.add("LivelockError", m.py().get_type::<LivelockError>())?;
    m.add("MEASURES", arqlab::sim::measure::MEASURES.to_vec())?;
    m.add("DIALOGUE_MEASURES", arqlab::traffic::dialogue::DIALOGUE_MEASURES.to_vec())?;
    m.add_function(wrap_pyfunction!(toml_to_json_text, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(run_replication, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add_function(wrap_pyfunction!(flights, m)?)?;
    m.add_function(wrap_pyfunction!(pcap, m)?)?;
    m.add_function(wrap_pyfunction!(interval, m)?)?;
    m.add_class::<RunningInterval>()?;
    m.add_function(wrap_pyfunction!(precision_status, m)?)?;
    m.add_function(wrap_pyfunction!(paired_interval, m)?)?;
    m.add_function(wrap_pyfunction!(request_interrupt, m)?)?;
    m.add_function(wrap_pyfunction!(clear_interrupt, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt_requested, m)?)?;
    Ok(())
}
