#!/usr/bin/env python3
"""One operator process, K sensor processes (loopback), each fed lines through a FIFO as fast as it
signs. Phase 1 warms the JVMs up (W lines per sensor), phase 2 is measured (N lines per sensor):
wall readings/s at the operator, CPU ms per reading of the operator and of all sensors.
With MODE "backfill", phase 2 runs while the operator is stopped: the sensors sign the N lines into
their history, then the operator restarts on its data dir and backfills them with HistoryRead;
measured from the restarted operator's first subscription to its last verdict (the sensors only
serve history then), so it is the operator's own rate with the cores to itself, JIT warm-up included.
With PLANT_METRICS=PORT the operator also serves its console on 127.0.0.1:PORT, and /metrics is read
at both ends of the measured phase: the CPU time of the signature checks it made then
(pqsign_signature_check_cpu_seconds_total) beside its process's (process_cpu_seconds_total), so the
operator's own cost per reading is told from the cryptography's in the same run.
Usage: [PLANT_OPERATOR_JFR=FILE] [PLANT_METRICS=PORT] plant.py JARDIR K W N [PARAMS [MODE]]"""
import json, os, subprocess, sys, tempfile, time, urllib.request
jar, K, W, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
PS = sys.argv[5] if len(sys.argv) > 5 else "XMSSMT-SHA2_10/2_256"
MODE = sys.argv[6] if len(sys.argv) > 6 else "live"
assert MODE in ("live", "backfill"), MODE
T = tempfile.mkdtemp(prefix="plant.", dir="/var/tmp")
P = ["java", "-jar", jar + "/pqsign.jar"]
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
def user_sys(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) / hz, int(f[12]) / hz
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / hz
sensors = []
for i in range(K):
    subprocess.run(P + ["keygen", "--params", PS, "--out", f"{T}/k{i}"], check=True, capture_output=True)
    os.mkfifo(f"{T}/f{i}")
    keyfile = "key.sk" if os.path.exists(f"{T}/k{i}/key.sk") else "key.state"
    sensors.append({"name": f"s{i}", "url": f"opc.tcp://127.0.0.1:{48500+i}/pqsign", "pub": f"{T}/k{i}/key.pub", "params": PS})
json.dump({"sensors": sensors}, open(f"{T}/sensors.json", "w"))
# PLANT_OPERATOR_JFR=FILE: the operator runs under Java Flight Recorder (profile settings), dumped to FILE at exit.
JFR = os.environ.get("PLANT_OPERATOR_JFR")
PO = ["java", f"-XX:StartFlightRecording=filename={JFR},settings=profile,dumponexit=true", "-jar", jar + "/pqsign.jar"] if JFR else P
METRICS = os.environ.get("PLANT_METRICS")
def operator(out):
    http = ["--http", f"127.0.0.1:{METRICS}"] if METRICS else []
    return subprocess.Popen(PO + ["operator", "--sensors", f"{T}/sensors.json", "--jsonl", f"{T}/v.jsonl",
                                  "--connect-timeout", "300", "--data-dir", f"{T}/od"] + http,
                            stdout=open(out, "w"), stderr=subprocess.STDOUT)
def scrape():
    """{metric name: value} of the operator's /metrics (the counters this script reads), or {} without it."""
    if not METRICS:
        return {}
    text = urllib.request.urlopen(f"http://127.0.0.1:{METRICS}/metrics", timeout=10).read().decode()
    out = {}
    for line in text.splitlines():
        name = line.split(" ")[0]
        if name in ("process_cpu_seconds_total", "pqsign_signature_check_cpu_seconds_total",
                    "pqsign_signature_checks_total"):
            out[name] = float(line.split(" ")[1])
    return out
op = operator(f"{T}/op.out")
sps = [subprocess.Popen(P + ["sensor", "--key", f"{T}/k{i}/{keyfile}", "--port", str(48500+i), "--source", f"{T}/f{i}",
                             "--data-dir", f"{T}/sd{i}"], stdout=open(f"{T}/s{i}.out", "w"), stderr=subprocess.STDOUT)
       for i in range(K)]
fifos = [open(f"{T}/f{i}", "w") for i in range(K)]  # opens block until each sensor opened its end
while open(f"{T}/op.out").read().count("subscribed to") < K:
    time.sleep(0.2)
time.sleep(1)
pos = 0; counts = {}
def follow(target):
    global pos
    with open(f"{T}/v.jsonl", "rb") as f:
        while True:
            f.seek(pos); chunk = f.read(); 
            cut = chunk.rfind(b"\n") + 1; pos += cut
            for line in chunk[:cut].splitlines():
                o = json.loads(line); v = o.get("verdict") or o.get("event")
                counts[v] = counts.get(v, 0) + 1
            if counts.get("ACCEPTED", 0) >= target: return
            time.sleep(0.1)
def feed(start, n):
    for i, f in enumerate(fifos):
        f.write("".join(f"{1500+j%7}.{j%100:02d},s{i}-{j}\n" for j in range(start, start + n))); f.flush()
def signed():
    return [open(f"{T}/s{i}.out").read().count("index=") for i in range(K)]
feed(0, W); follow(K * W)
if MODE == "backfill":
    op.terminate(); op.wait()
    feed(W, N)
    while min(signed()) < W + N:
        time.sleep(0.2)
    time.sleep(1)
    s0 = sum(cpu(p.pid) for p in sps); l0 = os.getloadavg()[0]
    op = operator(f"{T}/op2.out")
    # The clock starts when the restarted operator has subscribed to its first sensor (that
    # sensor's backfill starts then): not at its first verdict, which an operator that reports a
    # page of the history at once writes only after judging the whole page.
    while "subscribed to" not in open(f"{T}/op2.out").read():
        time.sleep(0.005)
    t0 = time.time(); c0 = cpu(op.pid); m0 = scrape(); th0 = threads(op.pid); us0 = user_sys(op.pid)
else:
    c0 = cpu(op.pid); s0 = sum(cpu(p.pid) for p in sps); t0 = time.time(); l0 = os.getloadavg()[0]; m0 = scrape()
    th0 = threads(op.pid); us0 = user_sys(op.pid)
    feed(W, N)
follow(K * (W + N))
t1 = time.time(); c1 = cpu(op.pid); s1 = sum(cpu(p.pid) for p in sps); l1 = os.getloadavg()[0]; m1 = scrape()
th1 = threads(op.pid); us1 = user_sys(op.pid)
for f in fifos: f.close()
for p in sps: p.wait()
op.terminate(); rc = op.wait()
n = K * N
print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {MODE} params {PS} sensors {K} measured {n} readings (after {K*W} warm-up)")
print(f"  wall {t1-t0:.1f} s -> {n/(t1-t0):.0f} verified readings/s; operator CPU {1000*(c1-c0)/n:.3f} ms/reading "
      f"(-> {2000/(1000*(c1-c0)/n):.0f} readings/s on 2 cores); sensors CPU {1000*(s1-s0)/n:.3f} ms/reading; load {l0:.1f}->{l1:.1f}")
if m0 and m1:
    sig = m1["pqsign_signature_check_cpu_seconds_total"] - m0["pqsign_signature_check_cpu_seconds_total"]
    checks = m1["pqsign_signature_checks_total"] - m0["pqsign_signature_checks_total"]
    proc = m1["process_cpu_seconds_total"] - m0["process_cpu_seconds_total"]
    print(f"  signature checks {checks:.0f}, their CPU {1000*sig/checks:.3f} ms each; operator process CPU "
          f"{proc:.2f} s = {proc/sig:.2f} x the checks' {sig:.2f} s")
d = sorted(((k, v - th0.get(k, 0)) for k, v in th1.items()), key=lambda kv: -kv[1])
print(f"  operator CPU user {us1[0]-us0[0]:.2f} s, system {us1[1]-us0[1]:.2f} s; threads, CPU s in the measured phase: " + ", ".join(f"{k} {v:.1f}" for k, v in d[:8] if v >= 0.05))
print(f"  verdicts {counts}; operator exit {rc}; dir {T}")
