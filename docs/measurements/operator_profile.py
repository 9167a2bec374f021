#!/usr/bin/env python3
"""Groups the Java execution samples of an operator's flight recording that fall into the per-reading
path (Operator$Connection.handle) by the first matching frame on the stack, most specific first.
Usage: jfr print --json --stack-depth 80 --events jdk.ExecutionSample op.jfr > s.json; operator_profile.py s.json"""
import collections, json, sys
GROUPS = [("XmssVerifier", "signature verification (XmssVerifier)"),
          ("VerdictJsonl", "JSON Lines (Jackson tree, Base64 signature, flush per line)"),
          ("String.format", "String.format of verify/e2e ms in the text line"),
          ("ReadingVerifier.reported", "markReported (re-reads and decodes the slot)"),
          ("PrintWriter", "text verdict line (printf, flush)"),
          ("AcceptedRecords", "AcceptedRecords.put (encode again, CRC, pwrite)"),
          ("MarkFile", "replay mark (MarkFile group commit)"),
          ("ReplayGuard", "replay guard, other"),
          ("contentDigest", "SHA-256 content digest (duplicate check)"),
          ("SignedRecord.decode", "SignedRecord.decode")]
events = json.load(open(sys.argv[1]))["recording"]["events"]
counts, n = collections.Counter(), 0
for e in events:
    frames = [f["method"]["type"]["name"].split("/")[-1] + "." + f["method"]["name"]
              for f in e["values"]["stackTrace"]["frames"]]
    if not any("Operator$Connection.handle" in f for f in frames):
        continue
    n += 1
    counts[next((name for key, name in GROUPS if any(key in f for f in frames)), "other in handle")] += 1
print(f"{n} of {len(events)} samples in Operator$Connection.handle")
for name, v in counts.most_common():
    print(f"{v:5d} {100 * v / n:5.1f}%  {name}")
