// Runs hub firmware modules in MicroPython's WebAssembly build, under Node.
//
//   node runner.mjs FIRMWARE_DIR script FILE
//       copies FIRMWARE_DIR/*.py into MicroPython's file system (on sys.path),
//       runs FILE there; its prints go to stdout.  Exit status 1 on an exception.
//   node runner.mjs FIRMWARE_DIR hub HOST_FILE CONTROL_FD
//       runs HOST_FILE (it defines step(n) and control(line)), then calls
//       step() about once a millisecond: the hub's byte stream is stdin and
//       stdout, control lines come on CONTROL_FD, and the hub reports on stderr.
//
// MicroPython reaches back through its `js` bridge to the module `hostio`:
// take() and put() carry the byte stream (hex strings), ticks_us() is
// CLOCK_MONOTONIC in microseconds wrapped at 2**30 as on the RP2040 (and
// wrapping 3 s after the runner starts), report()
// writes a line to stderr, and controls() hands over the control lines.

import { readFileSync, readdirSync, createReadStream } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const TICKS_PERIOD = 1n << 30n;
// ticks_us() wraps this many microseconds into the run (MPY_TICKS_WRAP_US, default 3 s)
const TICKS_OFFSET = TICKS_PERIOD - BigInt(process.env.MPY_TICKS_WRAP_US || "3000000");
const [firmwareDir, mode, file, controlFd] = process.argv.slice(2);
if (!firmwareDir || !["script", "hub"].includes(mode) || !file) {
    process.stderr.write("usage: node runner.mjs FIRMWARE_DIR (script|hub) FILE\n");
    process.exit(2);
}

const mp = await loadMicroPython({
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/fw");
for (const name of readdirSync(firmwareDir)) {
    if (name.endsWith(".py")) {
        mp.FS.writeFile("/fw/" + name, readFileSync(join(firmwareDir, name)));
    }
}

const origin = process.hrtime.bigint();
let inbox = [];
let controlLines = [];
let closing = false;
const outChunks = [];

mp.registerJsModule("hostio", {
    // the microsecond tick counter, wrapping as MicroPython's ticks_us() does on the Pico
    ticks_us: () => Number(((process.hrtime.bigint() - origin) / 1000n + TICKS_OFFSET) % TICKS_PERIOD),
    ticks_offset: () => Number(TICKS_OFFSET),
    origin_ns: () => origin.toString(),
    take: () => {
        if (inbox.length === 0) return "";
        const data = Buffer.concat(inbox);
        inbox = [];
        return data.toString("hex");
    },
    put: (hex) => { outChunks.push(Buffer.from(hex, "hex")); },
    report: (line) => { process.stderr.write(line + "\n"); },
    controls: () => {
        const lines = controlLines;
        controlLines = [];
        return lines.join("\n");
    },
});

function run(code) {
    try {
        mp.runPython(code);
    } catch (err) {
        process.stderr.write(String(err) + "\n");
        process.exitCode = 1;
        return false;
    }
    return true;
}

if (!run("import sys\nsys.path.insert(0, '/fw')\n")) process.exit(1);
const source = readFileSync(file, "utf8");

if (mode === "script") {
    run(source);
} else {
    if (!run(source)) process.exit(1);
    const step = mp.globals.get("step");
    const control = mp.globals.get("control");
    process.stdin.on("data", (chunk) => { inbox.push(chunk); });
    process.stdin.on("end", () => { closing = true; });
    let pending = "";
    const controlStream = createReadStream(null, { fd: Number(controlFd) });
    controlStream.on("data", (chunk) => {
        pending += chunk.toString("utf8");
        const lines = pending.split("\n");
        pending = lines.pop();
        controlLines.push(...lines);
    });
    controlStream.on("end", () => { closing = true; });
    const tick = () => {
        try {
            step(4);
        } catch (err) {
            process.stderr.write(String(err) + "\n");
            process.exit(1);
        }
        if (outChunks.length) {
            process.stdout.write(Buffer.concat(outChunks.splice(0)));
        }
        if (closing) {
            try { control("quit"); } catch (err) { process.stderr.write(String(err) + "\n"); process.exitCode = 1; }
            process.stdout.end();
            setTimeout(() => process.exit(), 10);
            return;
        }
        setTimeout(tick, 1);
    };
    tick();
}
