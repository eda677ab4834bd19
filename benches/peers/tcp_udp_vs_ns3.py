"""arqlab beside ns-3 on one lossy point-to-point link: a TCP NewReno bulk transfer and
a UDP bulk transfer, run alternately (ns-3, arqlab, ns-3, arqlab, … so a busy machine
slows both alike), each replication with its own seed.

    python benches/peers/tcp_udp_vs_ns3.py [--replications 10] [--duration-s 2000]
    python benches/peers/tcp_udp_vs_ns3.py --arqlab-only     # without ns-3

The link: 48 kbit/s each way, 50 ms, independent bit errors 1e-5 both ways; TCP MSS
125 octets, no SACK, no timestamps, no window scaling, initial window 1 segment,
delayed ACKs (2 segments or 200 ms), initial and minimum RTO 1 s, receive window
65,535 octets; NewReno with classic fast recovery (RFC 6582) in both. Every frame
carries 20 octets of IP and 2 of PPP header (arqlab: the `datagram` layer's 176
overhead bits), so a 125-octet segment is a 167-octet frame. UDP: 125-octet datagrams
offered at the line rate. Prints, per protocol and simulator, the goodput (user bits
delivered / (48 kbit/s × measured time)) with its 95 % CI over replications, TCP's
timeouts per 10⁴ s, and the CPU time per run with the ratio ns-3 / arqlab.

arqlab runs NewReno and, beside it, Reno (the same TCP, the partial-ACK rules off).
ns-3 runs twice: as configured by default (Limited Transmit, RFC 3042, on) and with
Limited Transmit off ("ns-3 no-LT"), which arqlab's TCP does not implement. ns-3's
timeouts are counted by a small C++ hook on the sender's socket. It uses the `RTO`
trace: each expiry of the retransmission timer doubles the RTO (RFC 6298 (5.5)), and a
change to exactly twice the old value is counted as an expiry (an RTT sample is not
expected to double it exactly). The entries into CA_LOSS are printed beside it as a
check. Each
simulator first runs one short untimed transfer so that cppyy's compilation of
templates is not charged to the first replication's CPU time.

ns-3 is an OPTIONAL dependency, never installed by the project or CI: `pip install ns3`
(the PyPI wheel of ns-3 with its cppyy bindings; its dependency CPyCppyy builds from
source on Python 3.11 x86_64, which takes tens of minutes). Install it in a separate
venv and make arqlab and its dependencies importable there, for example
`PYTHONPATH=python:.venv/lib/python3.11/site-packages` after `make build` (same
Python version). Without
ns-3, --arqlab-only runs the arqlab half (the tests in tests/test_peers.py do).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

RATE_BPS = 48_000.0
DELAY_S = 0.05
BER = 1e-5
MSS = 125
IP_PPP_OCTETS = 22
RWND = 65_535
#: Length of the untimed warm-up transfer of each simulator, seconds.
WARMUP_S = 20.0


def ci(xs: list[float]) -> tuple[float, float]:
    """Mean and 95 % half-width over independent replications (Student's t)."""
    from arqlab.studies.student_t import t_quantile

    if len(xs) < 2:
        return (xs[0] if xs else math.nan), math.nan
    return statistics.fmean(xs), t_quantile(len(xs) - 1, 0.975) * statistics.stdev(xs) / math.sqrt(len(xs))


# --------------------------------------------------------------------------- arqlab
def arqlab_scenario(protocol: str, duration_s: float, flavour: str = "newreno") -> dict[str, Any]:
    """The link as an explicit two-node scenario: `tcp` over `datagram`, or `datagram` alone."""
    datagram = {"kind": "datagram", "overhead_bits": 8 * IP_PPP_OCTETS}
    tcp = {"kind": "tcp", "flavour": flavour, "mss_octets": MSS, "receive_window_octets": RWND,
           "initial_window_segments": 1, "delayed_ack_s": 0.2, "header_bits": 160}
    # UDP: its 8-octet header is part of each datagram's payload on the wire.
    layers = [tcp, datagram] if protocol == "tcp" else [{**datagram, "overhead_bits": 8 * (IP_PPP_OCTETS + 8)}]
    return {
        "title": f"peer comparison: {protocol} over a lossy 48 kbit/s link",
        "run": {"duration_s": duration_s, "warmup_s": 0.0, "replications": 1},
        "stack": {"s": {"layers": layers}},
        "medium": [{"name": "l", "ends": ["a", "b"], "rate_bps": RATE_BPS, "delay_s": DELAY_S, "bit_error_rate": BER}],
        "node": [{"name": "a", "stack": "s"}, {"name": "b", "stack": "s"}],
        "flow": [{"from": "a", "to": "b", "traffic": {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 8 * MSS}}}],
    }


def run_arqlab(protocol: str, duration_s: float, seed: int, flavour: str = "newreno") -> dict[str, float]:
    """One replication: goodput (share of the line), TCP timeouts, CPU seconds."""
    import arqlab

    c0 = time.process_time()
    r = arqlab.simulate(arqlab_scenario(protocol, duration_s, flavour), seed=seed, replications=1)
    cpu = time.process_time() - c0
    flow = r.metrics["flow.a->b"]
    out = {"goodput": flow["throughput_bps"]["mean"] / RATE_BPS, "cpu_s": cpu}
    if protocol == "tcp":
        layers = r.metrics.get("transport.flow.a->b", {})
        out["timeouts"] = layers.get("tcp_timeouts", {}).get("mean", math.nan)
    return out


# ---------------------------------------------------------------------------- ns-3
#: Counts the sender's timeouts from its traces (cppyy cannot hand a Python function to
#: an ns-3 trace source, so the sinks are C++). Connected just after the application
#: has made its socket (at time 0).
NS3_TIMEOUT_HOOK = """
#include "ns3/applications-module.h"
#include "ns3/internet-module.h"
namespace arqlab_peer {
uint64_t rto_expiries = 0;
uint64_t loss_entries = 0;
void OnRto(ns3::Time was, ns3::Time now) {
    // TcpSocketBase::ReTxTimeout: m_rto = Min(2 m_rto, 60 s); a sample sets it from SRTT.
    if (now > was && now == ns3::Min(was * 2, ns3::Seconds(60))) { ++rto_expiries; }
}
void OnCongState(ns3::TcpSocketState::TcpCongState_t was, ns3::TcpSocketState::TcpCongState_t now) {
    if (now == ns3::TcpSocketState::CA_LOSS && was != now) { ++loss_entries; }
}
void Connect(ns3::Ptr<ns3::Application> app) {
    auto sock = ns3::DynamicCast<ns3::BulkSendApplication>(app)->GetSocket();
    sock->TraceConnectWithoutContext("RTO", ns3::MakeCallback(&OnRto));
    sock->TraceConnectWithoutContext("CongState", ns3::MakeCallback(&OnCongState));
}
void Reset(ns3::Ptr<ns3::Application> app, double at) {
    rto_expiries = 0;
    loss_entries = 0;
    ns3::Simulator::Schedule(ns3::Seconds(at), &Connect, app);
}
}
"""


def _ns3_hook(ns: Any) -> Any:
    if not hasattr(ns.cppyy.gbl, "arqlab_peer"):
        ns.cppyy.cppdef(NS3_TIMEOUT_HOOK)
    return ns.cppyy.gbl.arqlab_peer


def run_ns3(protocol: str, duration_s: float, seed: int, limited_transmit: bool = True) -> dict[str, float]:
    """The same link and transfer in ns-3 (RngRun = seed). ns-3 sends new segments on
    the first two duplicate ACKs (RFC 3042, its default); arqlab's TCP does not, so
    the row "ns-3 no-LT" turns it off."""
    from ns import ns  # the optional `ns3` wheel

    c0 = time.process_time()
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(seed)
    d = ns.Config.SetDefault
    d("ns3::TcpL4Protocol::SocketType", ns.TypeIdValue(ns.TcpNewReno.GetTypeId()))
    d("ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.TcpClassicRecovery.GetTypeId()))
    d("ns3::TcpSocket::SegmentSize", ns.UintegerValue(MSS))
    d("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(1))
    d("ns3::TcpSocket::DelAckCount", ns.UintegerValue(2))
    d("ns3::TcpSocket::DelAckTimeout", ns.TimeValue(ns.Seconds(0.2)))
    d("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(RWND))
    d("ns3::TcpSocket::SndBufSize", ns.UintegerValue(1 << 20))
    d("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
    d("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    d("ns3::TcpSocketBase::WindowScaling", ns.BooleanValue(False))
    d("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(limited_transmit))
    d("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(1.0)))
    d("ns3::RttEstimator::InitialEstimation", ns.TimeValue(ns.Seconds(1.0)))

    nodes = ns.NodeContainer()
    nodes.Create(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(f"{int(RATE_BPS)}bps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue(f"{int(DELAY_S * 1000)}ms"))
    devs = p2p.Install(nodes)
    for k in range(2):
        em = ns.CreateObject[ns.RateErrorModel]()
        em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_BIT"))
        em.SetAttribute("ErrorRate", ns.DoubleValue(BER))
        devs.Get(k).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
    ns.InternetStackHelper().Install(nodes)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    ifs = addr.Assign(devs)
    port = 9
    sink_addr = ns.InetSocketAddress(ifs.GetAddress(1), port).ConvertTo()
    factory = "ns3::TcpSocketFactory" if protocol == "tcp" else "ns3::UdpSocketFactory"
    sink = ns.PacketSinkHelper(factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
    sink_apps = sink.Install(nodes.Get(1))
    if protocol == "tcp":
        src = ns.BulkSendHelper(factory, sink_addr)
        src.SetAttribute("SendSize", ns.UintegerValue(MSS))
    else:
        src = ns.OnOffHelper(factory, sink_addr)
        src.SetAttribute("PacketSize", ns.UintegerValue(MSS))
        src.SetAttribute("DataRate", ns.StringValue(f"{int(RATE_BPS)}bps"))
        src.SetAttribute("OnTime", ns.StringValue("ns3::ConstantRandomVariable[Constant=1]"))
        src.SetAttribute("OffTime", ns.StringValue("ns3::ConstantRandomVariable[Constant=0]"))
    src_apps = src.Install(nodes.Get(0))
    sink_apps.Start(ns.Seconds(0.0))
    src_apps.Start(ns.Seconds(0.0))
    hook = _ns3_hook(ns) if protocol == "tcp" else None
    if hook is not None:
        hook.Reset(src_apps.Get(0), 1e-6)
    ns.Simulator.Stop(ns.Seconds(duration_s))
    ns.Simulator.Run()
    got = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)).GetTotalRx()
    ns.Simulator.Destroy()
    out = {"goodput": 8 * got / (RATE_BPS * duration_s), "cpu_s": time.process_time() - c0}
    if hook is not None:
        out["timeouts"] = float(hook.rto_expiries)
        out["loss_entries"] = float(hook.loss_entries)
    return out


# ---------------------------------------------------------------------------- main
#: The runs of one replication: (protocol, simulator row, function). Both TCPs are
#: NewReno; arqlab's Reno is the row that shows what the partial-ACK rules are worth.
def runs(arqlab_only: bool) -> list[tuple[str, str, Callable[[str, float, int], dict[str, float]]]]:
    ns3 = [] if arqlab_only else [("tcp", "ns-3", run_ns3),
                                  ("tcp", "ns-3 no-LT", lambda p, d, s: run_ns3(p, d, s, limited_transmit=False)),
                                  ("udp", "ns-3", run_ns3)]
    return [*ns3[:2], ("tcp", "arqlab", run_arqlab),
            ("tcp", "arqlab-reno", lambda p, d, s: run_arqlab(p, d, s, flavour="reno")),
            *ns3[2:], ("udp", "arqlab", run_arqlab)]


def compare(replications: int, duration_s: float, arqlab_only: bool) -> dict[tuple[str, str], dict[str, list[float]]]:
    """Alternates the simulators replication by replication, after one untimed warm-up
    transfer each (cppyy compiles ns-3's templates on first use)."""
    for protocol, _, fn in runs(arqlab_only):
        fn(protocol, min(duration_s, WARMUP_S), 1)
    rows: dict[tuple[str, str], dict[str, list[float]]] = {}
    for rep in range(1, replications + 1):
        for protocol, name, fn in runs(arqlab_only):
            r = fn(protocol, duration_s, rep)
            cell = rows.setdefault((protocol, name), {})
            for k, v in r.items():
                cell.setdefault(k, []).append(v)
    return rows


def difference(a: list[float], b: list[float]) -> tuple[float, float]:
    """mean(a) − mean(b) and its 95 % half-width (Welch: unequal variances, independent
    seeds in the two simulators)."""
    from arqlab.studies.student_t import t_quantile

    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0.0:
        return statistics.fmean(a) - statistics.fmean(b), 0.0
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return statistics.fmean(a) - statistics.fmean(b), t_quantile(max(1, int(df)), 0.975) * math.sqrt(va + vb)


def report(rows: dict[tuple[str, str], dict[str, list[float]]], duration_s: float) -> str:
    lines = [f"{'':4} {'simulator':11} {'goodput (share of 48 kbit/s)':>28} {'timeouts/1e4 s':>18} "
             f"{'CA_LOSS/1e4 s':>14} {'CPU s/run':>10}"]
    per_1e4 = 1e4 / duration_s
    for (protocol, name), cell in sorted(rows.items()):
        g, h = ci(cell["goodput"])
        to, to_h = ci([x * per_1e4 for x in cell["timeouts"]]) if cell.get("timeouts") else (math.nan, math.nan)
        loss = statistics.fmean(cell["loss_entries"]) * per_1e4 if cell.get("loss_entries") else math.nan
        cpu = statistics.fmean(cell["cpu_s"])
        lines.append(f"{protocol:4} {name:11} {g:>19.4f} ± {h:.4f} {to:>11.0f} ± {to_h:<4.0f} {loss:>14.0f} {cpu:>10.3f}")
    for ns_row in ("ns-3", "ns-3 no-LT"):
        a, n = rows.get(("tcp", "arqlab")), rows.get(("tcp", ns_row))
        if a and n and len(a["goodput"]) > 1:
            d, h = difference(n["goodput"], a["goodput"])
            verdict = "agree within the 95 % CI" if abs(d) <= h else "differ"
            lines.append(f"tcp: NewReno goodput {ns_row} − arqlab = {d:+.4f} ± {h:.4f} (95 %, Welch): {verdict}")
    for protocol in ("tcp", "udp"):
        a, n = rows.get((protocol, "arqlab")), rows.get((protocol, "ns-3"))
        if a and n:
            lines.append(f"{protocol}: CPU time ns-3 / arqlab = {statistics.fmean(n['cpu_s']) / statistics.fmean(a['cpu_s']):.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replications", type=int, default=10)
    ap.add_argument("--duration-s", type=float, default=2000.0)
    ap.add_argument("--arqlab-only", action="store_true", help="skip ns-3 (not installed)")
    a = ap.parse_args(argv)
    if not a.arqlab_only:
        try:
            from ns import ns  # noqa: F401
        except ImportError:
            print("ns-3 is not installed (pip install ns3); use --arqlab-only", file=sys.stderr)
            return 2
    rows = compare(a.replications, a.duration_s, a.arqlab_only)
    print(f"{a.replications} replications of {a.duration_s:g} s each")
    print(report(rows, a.duration_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
