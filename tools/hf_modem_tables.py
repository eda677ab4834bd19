#!/usr/bin/env python3
"""Builds the HF modem PER tables in crates/arqlab/data/hf/ from published figures.

Run from the repository root: ``python3 tools/hf_modem_tables.py``. The derivation is
documented in docs/models/hf.md ("Modem tables"); in short:

* Anchor per mode: the SNR at which the standard *requires* a given coded BER on a
  two-path fading channel (MIL-STD-188-110B serial-tone performance table; the figures
  are also in docs/references.md#hf-radio).
* Shape: BER falls one decade per ``slope`` dB away from the anchor (capped at 0.5).
  Coded modes: 2.5 dB/decade -- the diversity order of a 0.6 s interleaver on a 1 Hz
  Doppler, two-path channel is about 2 paths x 2 coherence times = 4 (10/4 dB/decade).
  Uncoded 4800 bit/s: 5 dB/decade (second-order diversity from the two paths).
* Packets: Viterbi decoder errors come in events of ``burst`` bits (about 5 for the
  K=7 rate-1/2 code: the free-distance paths' information weight over their number),
  so PER = 1 - exp(-L * BER / burst); uncoded modes use burst = 1.
* MIL-STD-188-141B App. C code combining (BW2, 8-PSK 2400 symbols/s, rate-1/4 K=7):
  after k copies of a packet the receiver decodes at code rate 1/min(k,4) with k
  copies' energy. Copy 1 is uncoded 4800 bit/s (110B 4800U anchor), copy 2 is rate 1/2
  (110B 2400 anchor), copy 3 interpolates 2400 and 1200 in log2(rate), copy 4 is rate
  1/4 (110B 1200 anchor: same energy per information bit), and every further copy adds
  energy: the anchor moves by -10 log10(k/4) dB (Chase combining).
* BW1 (the HDL acknowledgement) is a Walsh-coded robust burst: the 110B 75 bit/s
  anchor.
* MIL-STD-188-110B Appendix C (3200-9600 bit/s, the STANAG 4539 waveforms) in the
  75-9600 table: anchors from Table C-XVII (BER 1e-5 on the ITU-R poor channel: 2
  paths, 2 ms, 1 Hz; "Very Long" 72-frame interleaver), rate-3/4 K=7 code (coded
  shape); framing from C.5.2/C.5.3: a 287-symbol preamble (2400 baud, no extra AGC
  blocks) and blocks of whole 0.12 s frames (Table C-XIV: 1152 bits per frame at
  9600 bit/s), here the 9-frame "Short" interleaver of 1.08 s.
"""
import math
from pathlib import Path

SNR = list(range(-10, 41))  # dB, 1 dB grid
OUT = Path(__file__).resolve().parent.parent / "crates" / "arqlab" / "data" / "hf"

# (rate bit/s, SNR dB, BER) required on a two-path fading channel, MIL-STD-188-110B
# serial tone (75-2400: 2 paths; 600-2400 at 2 ms / 1 Hz, 75-300 at 5 ms / 5 Hz;
# 4800 uncoded at 2 ms / 0.5 Hz, BER 1e-3).
ANCHORS_110B = [
    (75, 2.0, 1e-5, True),
    (150, 5.0, 1e-5, True),
    (300, 7.0, 1e-5, True),
    (600, 7.0, 1e-5, True),
    (1200, 11.0, 1e-5, True),
    (2400, 18.0, 1e-5, True),
    (4800, 27.0, 1e-3, False),
]
# (rate bit/s, SNR dB) for BER 1e-5 on the ITU-R poor channel (2 paths, 2 ms, 1 Hz),
# MIL-STD-188-110B Appendix C, Table C-XVII (as reprinted in MIL-STD-188-110C w/Change 1,
# p. 134). 12800 bit/s (uncoded) has an AWGN figure only and is left out.
ANCHORS_APPC = [(3200, 14.0), (4800, 19.0), (6400, 23.0), (8000, 27.0), (9600, 31.0)]
APPC_PREAMBLE_S = 287 / 2400  # C.5.2.1.1, second section only (N = 0 AGC blocks)
APPC_FRAMES = 9  # "Short" interleaver (Table C-X)
APPC_FRAME_S = 0.12  # one frame carries bps x 0.12 s input bits (Table C-XIV)
CODED_SLOPE, UNCODED_SLOPE = 2.5, 5.0
CODED_BURST, UNCODED_BURST = 5.0, 1.0
SIZES_110B = [64, 256, 1024, 2048, 4096, 8192]
# Johnson's external modem (docs/models/hf.md, "Calibrated 110B"): a rate ladder on the
# paper's channel (2 ms / 1 Hz), its required SNR strictly rising with the rate, every
# anchor moved up by one shift that the paper's 5 dB statement bounds.
# * 600, 1200 bit/s: the standard's figures on that channel (7, 11 dB).
# * 300, 150 bit/s: 600 bit/s's BPSK symbols, code and interleaver with every coded bit
#   sent 2 or 4 times (110B serial tone); combining the repeats doubles or quadruples the
#   energy per bit: 10 log10(2) and 10 log10(4) dB below 600. (The standard's own 300
#   and 150 figures, 7 and 5 dB, are on a 5 ms / 5 Hz channel: not comparable with 600's.)
# * 75 bit/s (Walsh): 3 dB below 150, the standard's own 150 -> 75 spacing (5 -> 2 dB).
# * 3200-9600 bit/s: Appendix C, Table C-XVII (the paper's channel). The serial tone's
#   2400 (18 dB) and uncoded 4800 (27 dB for only 1e-3) are left off the ladder: App. C's
#   3200 (14 dB) and coded 4800 (19 dB) need less SNR, so an adaptive modem that has both
#   never picks them (they are never chosen with the standard's table either).
REPEAT_DB = 10 * math.log10(2)
ANCHORS_JOHNSON = [
    (75, 7.0 - 2 * REPEAT_DB - 3.0, 1e-5, True),
    (150, 7.0 - 2 * REPEAT_DB, 1e-5, True),
    (300, 7.0 - REPEAT_DB, 1e-5, True),
    (600, 7.0, 1e-5, True),
    (1200, 11.0, 1e-5, True),
]
# The paper: "at 5 dB SNR, 300 bps results in a packet error rate of over 50%, while 150
# bps is nearly error-free" (a 5066 data packet, 1728 bits: the lookup reads the 2048-bit
# row). The first half is a lower bound on the shift, the second an upper one; the shift
# is the smallest on a 0.1 dB grid that meets the first (johnson_offset_db(); main() asserts
# that it meets the second with 150 bit/s under 5 %).
JOHNSON_PACKET_ROW = 2048


def johnson_offset_db() -> float:
    a300 = next(s for r, s, _, _ in ANCHORS_JOHNSON if r == 300)
    d = 0.0
    while per(5.0, a300 + d, 1e-5, True, JOHNSON_PACKET_ROW) <= 0.5:
        d = round(d + 0.1, 1)
    return d




def ber(snr: float, ref_snr: float, ref_ber: float, coded: bool) -> float:
    slope = CODED_SLOPE if coded else UNCODED_SLOPE
    return min(0.5, ref_ber * 10 ** (-(snr - ref_snr) / slope))


def per(snr: float, ref_snr: float, ref_ber: float, coded: bool, bits: int, coded_burst: float = CODED_BURST) -> float:
    """PER of a `bits`-bit packet: bit errors in independent events of `coded_burst` bits
    after a decoder (one bit uncoded)."""
    burst = coded_burst if coded else UNCODED_BURST
    b = ber(snr, ref_snr, ref_ber, coded)
    return 1.0 - math.exp(-bits * b / burst)


def fmt(xs: list[float]) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in xs) + "]"


def mode(name: str, bps: float, sizes: list[int], anchor: tuple[float, float, bool], extra: str = "",
         coded_burst: float = CODED_BURST) -> str:
    ref_snr, ref_ber, coded = anchor
    rows = ",\n  ".join(fmt([per(s, ref_snr, ref_ber, coded, L, coded_burst) for s in SNR]) for L in sizes)
    return (
        f"\n[[mode]]\nname = \"{name}\"\nbps = {bps}\n{extra}"
        f"# anchor: BER {ref_ber:g} at {ref_snr:g} dB ({'coded' if coded else 'uncoded'})\n"
        f"packet_bits = {sizes}\nper = [\n  {rows},\n]\n"
    )


def table_110b(appendix_c: bool = False, coded_burst: float = CODED_BURST, offset_db: float = 0.0,
               anchors: list[tuple[int, float, float, bool]] = ANCHORS_110B) -> str:
    """The 110B table; ``offset_db`` moves every anchor up (a modem that needs that much
    more SNR than ``anchors``: the Johnson ladder's shift)."""
    shifted = (
        f"# Every anchor {offset_db:g} dB above the ladder's figure (the rates' required SNR, strictly\n"
        "# rising, on the paper's 2 ms / 1 Hz channel; no 2400 or uncoded 4800): calibrated to\n"
        "# Johnson's statement that at 5 dB \"300 bps results in a packet error rate of over\n"
        "# 50 %, while 150 bps is nearly error-free\", on a ladder whose required SNR rises\n"
        "# strictly with the rate (docs/models/hf.md, \"Calibrated 110B\").\n"
        if offset_db else ""
    )
    head = (
        "# MIL-STD-188-110B serial-tone modem, short interleave: packet error rate vs SNR.\n"
        + ("# With the Appendix C waveforms (3200-9600 bit/s): their own preamble and blocks.\n" if appendix_c else "")
        + shifted
        + "# Generated by tools/hf_modem_tables.py from the standard's required BER performance\n"
        "# (see docs/models/hf.md, \"Modem tables\"). Replaceable: keep the keys, give your own\n"
        "# measured rows (per[i][j] = PER of a packet_bits[i]-bit packet at snr_db[j]).\n"
        + (f"name = \"MIL-STD-188-110B serial tone (short interleave) and App. C ({APPC_FRAMES}-frame interleaver)"
           + (f", {offset_db:g} dB above a strictly ordered ladder of the required figures (Johnson's 5 dB statement)" if offset_db else "") + "\"\n" if appendix_c
           else "name = \"MIL-STD-188-110B serial tone (short interleave)\"\n")
        +
        "combining = false\n"
        "preamble_s = 0.6\n"
        "interleaver_block_s = 0.6\n"
        f"snr_db = {SNR}\n"
    )
    o = offset_db
    body = "".join(mode(f"{r} bit/s", float(r), SIZES_110B, (s + o, b, c), coded_burst=coded_burst) for r, s, b, c in anchors)
    if appendix_c:
        extra = f"preamble_s = {APPC_PREAMBLE_S!r}\ninterleaver_block_s = {round(APPC_FRAMES * APPC_FRAME_S, 9)!r}\n"
        body += "".join(mode(f"{r} bit/s (App. C)", float(r), SIZES_110B, (s + o, 1e-5, True), extra, coded_burst) for r, s in ANCHORS_APPC)
    return head + body


def table_141b(first_copy_coded: bool = False) -> str:
    """The 141B App. C table; ``first_copy_coded``: after k copies as good as the
    standard's k + 1 (copy 1 on the 2400 coded anchor, not the uncoded 4800 one), the sensitivity
    for Johnson's "at high SNR both modems transfer data quickly and efficiently"."""
    a = {r: (s, b, c) for r, s, b, c in ANCHORS_110B}
    variant = ("# Sensitivity: after k copies uses the standard's k + 1 anchor (copy 1: 110B 2400 coded, not uncoded 4800).\n"
               if first_copy_coded else "")
    head = (
        "# MIL-STD-188-141B Appendix C burst waveforms with code combining (HDL).\n" + variant +
        "# BW2: 640 ms of TLC and sync preamble, then 400 ms per packet slot of 1881 bits\n"
        "# (233 user octets); BW1, the HDL acknowledgement, 1306.67 ms in all.\n"
        "# A BW2 burst carries n = 3, 6, 12 or 24 packets (640 + 400 n ms): fewer are padded.\n"
        "# Generated by tools/hf_modem_tables.py (see docs/models/hf.md, \"Modem tables\").\n"
        "name = \"MIL-STD-188-141B App. C BW2/BW1 with code combining\"\n"
        "combining = true\n"
        "preamble_s = 0.64\n"
        "interleaver_block_s = 0.0\n"
        "burst_packets = [3, 6, 12, 24]\n"
        f"snr_db = {SNR}\n"
    )
    body = ""
    r2400, r1200 = a[2400][0], a[1200][0]

    def anchor(copies: int) -> tuple[float, float, bool]:
        """The standard's anchor after ``copies`` combined copies."""
        if copies == 1:
            return a[4800]
        if copies == 2:
            return a[2400]
        if copies == 3:
            # 1600 bit/s equivalent: interpolate the 2400 and 1200 anchors in log2(rate).
            return (r2400 + (r1200 - r2400) * math.log2(2400 / 1600), 1e-5, True)
        return (r1200 - 10 * math.log10(copies / 4), 1e-5, True)

    for k in range(1, 17):
        # "First copy as good as two": the whole ladder moves by one copy, so every
        # later copy still helps (a copy-1-only substitution made copy 2 always fail).
        extra = f"role = \"data\"\ncopies = {k}\nairtime_s = 0.4\n"
        body += mode(f"BW2 after {k} cop{'y' if k == 1 else 'ies'}", 4800.0, [1881], anchor(k + 1 if first_copy_coded else k), extra)
    body += mode("BW1", 4800.0, [64], a[75], "role = \"control\"\nairtime_s = 0.66667\n")
    return head + body


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "mil-std-188-110b.toml").write_text(table_110b())
    (OUT / "mil-std-188-110b-75-9600.toml").write_text(table_110b(appendix_c=True))
    (OUT / "mil-std-188-141b-appc.toml").write_text(table_141b())
    (OUT / "mil-std-188-141b-appc-first-copy-coded.toml").write_text(table_141b(first_copy_coded=True))
    d = johnson_offset_db()
    a150 = next(s for r, s, _, _ in ANCHORS_JOHNSON if r == 150)
    assert per(5.0, a150 + d, 1e-5, True, JOHNSON_PACKET_ROW) < 0.05, "150 bit/s nearly error-free at 5 dB"
    (OUT / "mil-std-188-110b-johnson.toml").write_text(table_110b(appendix_c=True, offset_db=d, anchors=ANCHORS_JOHNSON))


if __name__ == "__main__":
    main()
