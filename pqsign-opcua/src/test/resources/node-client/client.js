// An independent OPC UA client of the pqsign gateway (node-opcua), driven by NodeOpcuaClientTest.
// Usage: node client.js ENDPOINT SENSOR
// Prints one JSON object per line on standard output: {"kind":"ready"} once subscribed, then
// {"kind":"value",...} for every data change of SENSOR/reading and SENSOR/value and
// {"kind":"event",...} for every event of the sensor's folder. Reads commands on standard input:
// "history" (HistoryRead of SENSOR/reading), "write" (a Write to SENSOR/reading), "quit".
"use strict";
const readline = require("readline");
const {
    OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, TimestampsToReturn,
    ClientSubscription, ClientMonitoredItem, constructEventFilter, DataType
} = require("node-opcua-client");

const [endpoint, sensor] = process.argv.slice(2);
const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");
const iso = (d) => (d ? d.toISOString() : null);

async function main() {
    const client = OPCUAClient.create({
        applicationName: "pqsign node-opcua test client",
        endpointMustExist: false,
        securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None,
        connectionStrategy: { maxRetry: 5, initialDelay: 200, maxDelay: 1000 }
    });
    client.on("backoff", (n, delay) => print({ kind: "progress", step: "backoff", attempt: n, delay }));
    print({ kind: "progress", step: "connecting", endpoint });
    await client.connect(endpoint);
    print({ kind: "progress", step: "connected" });
    const session = await client.createSession();
    print({ kind: "progress", step: "session" });
    const namespaces = await session.readNamespaceArray();
    const ns = namespaces.indexOf("urn:pqsign:gateway");
    if (ns < 0) {
        throw new Error("no namespace urn:pqsign:gateway in " + namespaces);
    }
    const id = (leaf) => `ns=${ns};s=${sensor}/${leaf}`;
    const subscription = ClientSubscription.create(session, {
        requestedPublishingInterval: 5,
        requestedLifetimeCount: 1000,
        requestedMaxKeepAliveCount: 100,
        maxNotificationsPerPublish: 0,
        publishingEnabled: true,
        priority: 1
    });
    print({ kind: "progress", step: "subscription" });
    for (const leaf of ["reading", "value"]) {
        const item = await subscription.monitor(
            { nodeId: id(leaf), attributeId: AttributeIds.Value },
            { samplingInterval: 0, discardOldest: false, queueSize: 100 },
            TimestampsToReturn.Both);
        item.on("changed", (dv) => print({
            kind: "value",
            node: leaf,
            value: dv.value.value,
            status: dv.statusCode.value,
            statusName: dv.statusCode.name,
            source: iso(dv.sourceTimestamp),
            server: iso(dv.serverTimestamp)
        }));
    }
    const events = await subscription.monitor(
        { nodeId: `ns=${ns};s=${sensor}`, attributeId: AttributeIds.EventNotifier },
        { queueSize: 100, discardOldest: false, filter: constructEventFilter(["SourceName", "Severity", "Message"]) },
        TimestampsToReturn.Neither);
    events.on("changed", (fields) => print({
        kind: "event",
        sourceName: fields[0].value,
        severity: fields[1].value,
        message: fields[2].value ? fields[2].value.text : null
    }));
    print({ kind: "ready", namespace: ns });

    const lines = readline.createInterface({ input: process.stdin });
    for await (const line of lines) {
        const command = line.trim();
        if (command === "history") {
            const r = await session.readHistoryValue(id("reading"), new Date(0), new Date(Date.now() + 3600000));
            print({
                kind: "history",
                status: r.statusCode.value,
                values: (r.historyData && r.historyData.dataValues ? r.historyData.dataValues : []).map((dv) => ({
                    value: dv.value.value, status: dv.statusCode.value, source: iso(dv.sourceTimestamp)
                }))
            });
        } else if (command === "write") {
            const s = await session.write({
                nodeId: id("reading"),
                attributeId: AttributeIds.Value,
                value: { value: { dataType: DataType.String, value: "forged" } }
            });
            print({ kind: "write", status: s.value, statusName: s.name });
        } else if (command === "quit") {
            break;
        }
    }
    await subscription.terminate();
    await session.close();
    await client.disconnect();
    print({ kind: "bye" });
    process.exit(0); // node-opcua keeps timers that would hold the process
}

main().catch((e) => {
    print({ kind: "error", message: String(e && e.message ? e.message : e) });
    process.exit(1);
});
