#!/usr/bin/env python3
"""Catch-up after an outage, builds compared alternately on the same sensors: K sensor processes
(loopback) each sign N lines into their history while no operator runs; then, for each round and
each build in turn, one `pqsign operator` starts on an empty data directory and backfills all K*N
readings with HistoryRead. Measured per run from the operator's first "subscribed to" line (the
first sensor's backfill starts) to the K*N-th ACCEPTED verdict in its JSON Lines: wall readings/s (its fresh JVM's warm-up included), the operator's CPU ms per reading
and the sensors' (serving history) over the same span. Round 0 only warms the sensors' JVMs up.
Each run's JSON Lines are checked: K*N ACCEPTED, K handovers followed (N > 1024 rolls each sensor's
set-1 key over once), nothing else.
CATCHUP_THREADS=1 also prints the CPU time of the operator's and one sensor's thread groups.
Usage: [CATCHUP_JFR=DIR] [CATCHUP_THREADS=1] catchup.py K N ROUNDS NAME=JARDIR [NAME=JARDIR ...]
CATCHUP_JFR=DIR runs every measured operator under Java Flight Recorder (profile settings), dumped
to DIR/NAME-ROUND.jfr at exit."""
import json, os, shutil, subprocess, sys, tempfile, time
K, N, ROUNDS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
BUILDS = [a.split("=", 1) for a in sys.argv[4:]]
PS = "XMSSMT-SHA2_10/2_256"
JFR = os.environ.get("CATCHUP_JFR")
T = tempfile.mkdtemp(prefix="catchup.", dir="/var/tmp")
hz = os.sysconf("SC_CLK_TCK")
def threads(pid):
    """CPU seconds per thread-name group of a process (names as /proc shows them, digits dropped)."""
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            st = open(f"/proc/{pid}/task/{t}/stat").read()
        except OSError:
            continue
        name = st[st.index("(") + 1:st.rindex(")")].rstrip("0123456789#-_ ")
        f = st.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + (int(f[11]) + int(f[12])) / hz
    return out
def top(d, n=8):
    return ", ".join(f"{k} {v:.1f}" for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:n])
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / hz
first = BUILDS[0][1]
P = ["java", "-jar", first + "/pqsign.jar"]
sensors = []
for i in range(K):
    subprocess.run(P + ["keygen", "--params", PS, "--out", f"{T}/k{i}"], check=True, capture_output=True)
    os.mkfifo(f"{T}/f{i}")
    sensors.append({"name": f"s{i}", "url": f"opc.tcp://127.0.0.1:{48600+i}/pqsign", "pub": f"{T}/k{i}/key.pub",
                    "params": PS})
json.dump({"sensors": sensors}, open(f"{T}/sensors.json", "w"))
sps = [subprocess.Popen(P + ["sensor", "--key", f"{T}/k{i}/key.state", "--port", str(48600+i), "--source", f"{T}/f{i}",
                             "--data-dir", f"{T}/sd{i}"], stdout=open(f"{T}/s{i}.out", "w"), stderr=subprocess.STDOUT)
       for i in range(K)]
fifos = [open(f"{T}/f{i}", "w") for i in range(K)]  # opens block until each sensor opened its end
for i, f in enumerate(fifos):
    f.write("".join(f"{1500+j%7}.{j%100:02d},s{i}-{j}\n" for j in range(N))); f.flush()
while min(open(f"{T}/s{i}.out").read().count("index=") for i in range(K)) < N:
    time.sleep(0.5)
time.sleep(2)  # the last readings reach the history
def run(name, jar, rnd):
    od, out = f"{T}/od-{name}-{rnd}", f"{T}/v-{name}-{rnd}.jsonl"
    java = ["java"]
    if JFR and rnd > 0:
        java.append(f"-XX:StartFlightRecording=filename={JFR}/{name}-{rnd}.jfr,settings=profile,dumponexit=true")
    log = f"{T}/op-{name}-{rnd}.out"
    op = subprocess.Popen(java + ["-jar", jar + "/pqsign.jar", "operator", "--sensors", f"{T}/sensors.json",
                                  "--jsonl", out, "--connect-timeout", "300", "--data-dir", od],
                          stdout=open(log, "w"), stderr=subprocess.STDOUT)
    # The clock starts when the first sensor is subscribed: its backfill starts right after. (Not
    # at the first verdict: an operator that reports a page of the history at once would start
    # the clock late.)
    while "subscribed to" not in open(log).read():
        time.sleep(0.002)
    t0, c0, s0, l0 = time.time(), cpu(op.pid), sum(cpu(p.pid) for p in sps), os.getloadavg()[0]
    th0 = threads(op.pid) if os.environ.get("CATCHUP_THREADS") else {}
    counts, pos = {}, 0
    while counts.get("ACCEPTED", 0) < K * N:
        chunk = b""
        if os.path.exists(out):
            with open(out, "rb") as f:
                f.seek(pos); chunk = f.read()
        cut = chunk.rfind(b"\n") + 1; pos += cut
        for line in chunk[:cut].splitlines():
            o = json.loads(line); v = o.get("verdict") or o.get("event")
            counts[v] = counts.get(v, 0) + 1
        if op.poll() is not None:
            break
        time.sleep(0.02)
    t1, c1, s1, l1 = time.time(), cpu(op.pid), sum(cpu(p.pid) for p in sps), os.getloadavg()[0]
    lines = []
    if os.environ.get("CATCHUP_THREADS"):
        th1 = threads(op.pid)
        lines = [f"  operator threads, CPU s before the first subscription: {top(th0)}",
                 f"  operator threads, CPU s from the first subscription to the last verdict: "
                 f"{top({k: v - th0.get(k, 0) for k, v in th1.items()})}",
                 f"  sensor s0 threads (CPU s since start): {top(threads(sps[0].pid))}"]
    op.terminate(); rc = op.wait()
    n = K * N
    ok = counts == {"ACCEPTED": n, "HANDOVER": K} or counts == {"ACCEPTED": n}
    print(f"{time.strftime('%H:%M:%S', time.gmtime())} round {rnd} {name}: {n/(t1-t0):.0f} verified readings/s "
          f"({t1-t0:.2f} s); operator CPU {1000*(c1-c0)/n:.3f} ms/reading, sensors {1000*(s1-s0)/n:.3f}; "
          f"load {l0:.1f}->{l1:.1f}; verdicts {counts} {'ok' if ok else 'UNEXPECTED'}; exit {rc}", flush=True)
    for line in lines:
        print(line, flush=True)
    shutil.rmtree(od, ignore_errors=True)
    os.remove(out)
print(f"{K} sensors x {N} readings ({PS}), dir {T}", flush=True)
for rnd in range(ROUNDS + 1):
    for name, jar in (BUILDS if rnd > 0 else BUILDS[:1]):
        run(name, jar, rnd)
for f in fifos: f.close()
for p in sps: p.wait()
