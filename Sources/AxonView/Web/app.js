// Axon live view: one WebSocket, four tabs drawn on canvases. Everything the page knows comes from the server's
// messages (docs/live-view.md); the page never knows which device or file the run reads.
"use strict";

const CHANNEL_COLORS = ["#1f5fbf", "#e07b00", "#8e44ad", "#c62828", "#00838f", "#6d4c41", "#ad1457", "#455a64"];
const ZONE_COLORS = {
    Relaxation: "#81c784", HighRelaxation: "#2e7d32", Dream: "#9575cd",
    NormalActivity: "#b0bec5", Agitation: "#ffb74d", HighAgitation: "#e53935",
};
const BAND_SHADES = ["rgba(90,140,230,0.13)", "rgba(240,190,40,0.16)", "rgba(220,80,160,0.12)"];
const PEAK_COLOR = "#00c000";
const IAF_COLOR = "#8a2be2";
const MAX_HISTORY_SECONDS = 35;
const SPECTRUM_UNIT = "µV² per bin";

const view = {
    hello: null, channels: [], points: [], gaps: [], spectrum: null, indicators: [], earlier: null, status: [], battery: null, alpha: null,
    stats: null, skipped: { messages: 0, raw: 0 }, ended: null, tab: "raw", dirty: true, rawMessages: 0,
    display: null,
};

function $(id) { return document.getElementById(id); }

// MARK: - Connection

function connect() {
    const protocol = location.protocol === "https:" ? "wss:" : "ws:";
    // The server's cookie (set with the page) authenticates the socket; the token stays out of its URL.
    const socket = new WebSocket(protocol + "//" + location.host + "/ws");
    if (!view.ended) showConnection("connecting", "connecting");
    socket.onopen = () => {
        if (!view.ended) showConnection("live", "open");
    };
    socket.onmessage = (event) => handle(JSON.parse(event.data));
    socket.onclose = () => {
        // After the run's end the page keeps what it has; "disconnected" would read as data being lost.
        if (view.ended) showConnection("run ended · view closed", "ended");
        else showConnection("disconnected: reconnecting", "closed");
        setTimeout(connect, 2000);
    };
}

function showConnection(text, state) {
    $("connection").textContent = text;
    $("connection").dataset.state = state;
}

function handle(message) {
    switch (message.type) {
    case "hello": applyHello(message); break;
    case "raw": applyRaw(message); break;
    case "spectrum": applySpectrum(message); break;
    case "indicator": applyIndicator(message); break;
    case "status": applyStatus(message); break;
    case "battery": applyBattery(message.level); break;
    case "alpha": view.alpha = message; break;
    case "display": applyDisplay(message); break;
    case "bandPowers": applyBandPowers(message); break;
    case "stats": applyStats(message); break;
    case "skipped": view.skipped = message; $("raw-skipped").textContent = message.messages; break;
    case "end": applyEnd(message); break;
    }
    view.dirty = true;
}

function applyHello(hello) {
    view.hello = hello;
    view.channels = hello.stream.channels;
    view.points = [];
    view.gaps = [];
    view.indicators = [];
    view.earlier = hello.earlier ? {
        count: hello.earlier.count, from: hello.earlier.from, to: hello.earlier.to,
        zones: Object.fromEntries(hello.earlier.zones.map((zone) => [zone.zone, zone.count])),
    } : null;
    view.status = [];
    $("stream-name").textContent = hello.stream.name + " · " + view.channels.length + " channels at "
        + hello.stream.rate + " Hz";
    $("source").textContent = hello.stream.source;
    $("timeline").replaceChildren();
    $("status-log").replaceChildren();
    buildSpectrumFigures();
    applyDisplay(hello.display);
    applyRaw(hello.raw);
    if (hello.spectrum) applySpectrum(hello.spectrum);
    hello.indicators.forEach(applyIndicator);
    showEarlier();
    hello.status.forEach(applyStatus);
    if (hello.battery !== null) applyBattery(hello.battery);
    view.alpha = hello.alpha || null;
    if (hello.bandPowers) applyBandPowers(hello.bandPowers);
    if (hello.stats) applyStats(hello.stats);
    if (!hello.spectrum) showBaseline("notStarted", 0);
    // A hello starts over: the run it describes may be a new one, which is live until its own end says otherwise.
    view.ended = null;
    $("ended").hidden = true;
    delete document.body.dataset.ended;
    showConnection("live", "open");
    if (hello.end) applyEnd(hello.end);
}

// MARK: - Raw data

// The display filter (docs/live-view.md): points carry each channel's raw value, then its filtered value; the
// switch picks which the traces show. The engine and its spectra never see the filter.
function applyDisplay(display) {
    view.display = display;
    $("display-filter-label").hidden = !display;
    if (display) $("display-filter-text").textContent = "(" + display.filter + ", notch " + display.notch + ")";
}

function showsFiltered() { return !!view.display && $("display-filter").checked; }

function applyRaw(raw) {
    view.rawMessages += 1;
    for (const point of raw.points) view.points.push(point);
    for (const gap of raw.gaps) view.gaps.push(gap);
    if (view.points.length > 0) {
        const newest = view.points[view.points.length - 1][0];
        let drop = 0;
        while (drop < view.points.length && view.points[drop][0] < newest - MAX_HISTORY_SECONDS) drop++;
        if (drop > 0) view.points.splice(0, drop);
        view.gaps = view.gaps.filter((gap) => gap.time + gap.duration >= newest - MAX_HISTORY_SECONDS);
    }
}

function drawRaw() {
    const canvas = $("raw-canvas");
    const ctx = canvas.getContext("2d");
    const width = canvas.width, height = canvas.height;
    ctx.clearRect(0, 0, width, height);
    const count = view.channels.length;
    if (count === 0) return;
    const span = Number($("span").value);
    const left = 90, right = width - 10;
    const newest = view.points.length ? view.points[view.points.length - 1][0] : 0;
    const start = newest - span;
    const x = (t) => left + (t - start) / span * (right - left);
    const laneHeight = height / count;
    const visible = view.points.filter((p) => p[0] >= start);
    // Lane of channel c in a point: raw values first, then the filtered ones.
    const lane = showsFiltered() ? count + 1 : 1;
    // Auto: each channel scaled to its own peak, so a channel with a blink or a large offset does not flatten the
    // others; a fixed scale is the same for every channel.
    const fixed = Number($("scale").value);
    const scales = [];
    for (let c = 0; c < count; c++) {
        let peak = 1;
        if (fixed === 0) {
            for (const p of visible) if (p[c + lane] !== null) peak = Math.max(peak, Math.abs(p[c + lane]));
        }
        scales.push(fixed === 0 ? peak : fixed);
    }
    // Gaps: a shaded band over the missing time, the traces broken there.
    let breaks = 0;
    for (const gap of view.gaps) {
        if (gap.time + gap.duration < start) continue;
        breaks++;
        ctx.fillStyle = "rgba(229,57,53,0.15)";
        const x0 = x(gap.time), x1 = Math.max(x0 + 3, x(gap.time + gap.duration));
        ctx.fillRect(x0, 0, x1 - x0, height);
    }
    let traces = 0;
    const spans = [];
    for (let c = 0; c < count; c++) {
        const middle = laneHeight * (c + 0.5);
        const scale = scales[c];
        ctx.strokeStyle = "#e0e0e0";
        ctx.beginPath(); ctx.moveTo(left, middle); ctx.lineTo(right, middle); ctx.stroke();
        ctx.fillStyle = CHANNEL_COLORS[c % CHANNEL_COLORS.length];
        ctx.font = "bold 14px system-ui";
        ctx.fillText(view.channels[c].label, 8, middle - 4);
        ctx.font = "11px system-ui";
        ctx.fillStyle = "#666";
        ctx.fillText("±" + formatNumber(scale) + " " + view.channels[c].unit, 8, middle + 12);
        ctx.strokeStyle = CHANNEL_COLORS[c % CHANNEL_COLORS.length];
        ctx.lineWidth = 1.2;
        ctx.beginPath();
        let drawing = false, segmentPoints = 0, top = Infinity, bottom = -Infinity;
        for (const p of visible) {
            const value = p[c + lane];
            if (value === null) { drawing = false; continue; }
            const y = middle - Math.max(-1.1, Math.min(1.1, value / scale)) * laneHeight / 2 * 0.9;
            if (drawing) ctx.lineTo(x(p[0]), y); else ctx.moveTo(x(p[0]), y);
            drawing = true;
            segmentPoints++;
            top = Math.min(top, y);
            bottom = Math.max(bottom, y);
        }
        ctx.stroke();
        if (segmentPoints > 1) traces++;
        spans.push(segmentPoints > 1 ? +((bottom - top) / laneHeight).toFixed(3) : 0);
    }
    ctx.fillStyle = "#666";
    ctx.font = "11px system-ui";
    ctx.fillText(formatNumber(start) + " s", left, height - 4);
    ctx.fillText(formatNumber(newest) + " s", right - 50, height - 4);
    canvas.dataset.traces = traces;
    // Each trace's height as a share of its lane, and which version is drawn.
    canvas.dataset.spans = spans.join(",");
    canvas.dataset.filtered = showsFiltered();
    canvas.dataset.points = visible.length;
    canvas.dataset.newest = newest.toFixed(3);
    canvas.dataset.breaks = breaks;
    canvas.dataset.gaps = view.gaps.length;
    canvas.dataset.messages = view.rawMessages;
}

// MARK: - Spectrum

function buildSpectrumFigures() {
    const grid = $("spectra");
    grid.replaceChildren();
    view.hello.engine.labels.forEach((label, index) => {
        const figure = document.createElement("figure");
        const canvas = document.createElement("canvas");
        canvas.id = "spectrum-" + index;
        canvas.width = 590; canvas.height = 300;
        canvas.dataset.label = label;
        const caption = document.createElement("figcaption");
        caption.id = "spectrum-caption-" + index;
        figure.append(canvas, caption);
        grid.append(figure);
    });
}

function applySpectrum(frame) {
    view.spectrum = frame;
    // Spectra and indicators travel separately: a frame no newer than the latest indicator cannot undo the
    // baseline that indicator completed.
    const last = view.indicators[view.indicators.length - 1];
    if (frame.baseline === "collecting" && last && frame.time <= last.time) return;
    showBaseline(frame.baseline, frame.baselineProgress);
}

function showBaseline(state, progress) {
    $("baseline").dataset.state = state;
    $("baseline").dataset.progress = progress;
    $("baseline-bar").style.width = (progress * 100).toFixed(1) + "%";
    const seconds = view.hello.engine.baselineSeconds;
    $("baseline-text").textContent = state === "collecting"
        ? "collecting " + Math.round(progress * 100) + "% of " + seconds + " s"
        : state === "complete" ? "complete" : "not started";
    // Until the first indicator the boxes below say why they are empty: zones are judged against the baseline.
    if (view.indicators.length > 0 || state === "complete") return;
    const waiting = state === "collecting"
        ? "after the baseline: " + Math.max(0, Math.ceil((1 - progress) * seconds)) + " s to go"
        : "after the " + seconds + "-s baseline, which starts with the first clean data";
    $("zone").textContent = waiting;
    $("zone").dataset.waiting = "true";
    $("colors").textContent = "Each channel's colour follows the baseline too.";
}

function drawSpectra() {
    const frame = view.spectrum;
    if (!frame || !view.hello) return;
    $("spectrum-time").textContent = "spectrum at " + frame.time.toFixed(1) + " s"
        + (frame.artifacts ? " · artifacts: " + frame.artifacts : "");
    const alpha = view.alpha;
    const hertz = (value) => (value === null ? "none" : value.toFixed(2) + " Hz");
    $("alpha-summary").textContent = alpha
        ? "individual alpha frequency (" + alpha.windows + " clean windows): PAF " + hertz(alpha.paf)
            + " · CoG " + hertz(alpha.cog)
        : "individual alpha frequency: after 10 clean windows";
    const fmax = view.hello.engine.spectrumMaximum;
    frame.channels.forEach((channel, index) => {
        const canvas = $("spectrum-" + index);
        if (!canvas) return;
        const ctx = canvas.getContext("2d");
        const width = canvas.width, height = canvas.height;
        const left = 50, right = width - 10, top = 10, bottom = height - 30;
        const x = (f) => left + f / fmax * (right - left);
        ctx.clearRect(0, 0, width, height);
        const powers = channel.power.map((p) => (p === null ? 1e-12 : Math.max(p, 1e-12)));
        let high = -Infinity, low = Infinity;
        powers.forEach((p, bin) => {
            if (bin * frame.binWidth > fmax) return;
            high = Math.max(high, Math.log10(p));
            low = Math.min(low, Math.log10(p));
        });
        low = Math.max(low, high - 8);
        high = Math.ceil(high + 0.2); low = Math.floor(low);
        const y = (p) => bottom - (Math.log10(Math.max(p, 1e-12)) - low) / (high - low) * (bottom - top);
        channel.bands.forEach((band, b) => {
            ctx.fillStyle = BAND_SHADES[b % BAND_SHADES.length];
            ctx.fillRect(x(band.low), top, x(band.high) - x(band.low), bottom - top);
        });
        ctx.strokeStyle = "#ccc";
        ctx.fillStyle = "#666";
        ctx.font = "11px system-ui";
        for (let f = 0; f <= fmax; f += 5) {
            ctx.beginPath(); ctx.moveTo(x(f), bottom); ctx.lineTo(x(f), bottom + 4); ctx.stroke();
            ctx.fillText(String(f), x(f) - 5, bottom + 16);
        }
        for (let e = low; e <= high; e += 2) ctx.fillText("1e" + e, 4, y(Math.pow(10, e)) + 4);
        ctx.fillText("Hz", right - 16, height - 2);
        // The y axis: power per frequency bin (what the spectrum message carries), on a log scale.
        ctx.save();
        ctx.translate(12, (top + bottom) / 2 + 30);
        ctx.rotate(-Math.PI / 2);
        ctx.fillText(SPECTRUM_UNIT, 0, 0);
        ctx.restore();
        canvas.dataset.yUnit = SPECTRUM_UNIT;
        ctx.strokeStyle = CHANNEL_COLORS[index % CHANNEL_COLORS.length];
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        powers.forEach((p, bin) => {
            const f = bin * frame.binWidth;
            if (f > fmax) return;
            if (bin === 0) ctx.moveTo(x(f), y(p)); else ctx.lineTo(x(f), y(p));
        });
        ctx.stroke();
        // The individual alpha frequency first, so a band's green line at the same place stays on top.
        const iaf = alpha && alpha.channels[index] ? alpha.channels[index].paf : null;
        canvas.dataset.iaf = iaf === null ? "none" : iaf.toFixed(3);
        if (iaf !== null) {
            ctx.strokeStyle = IAF_COLOR;
            ctx.lineWidth = 1.5;
            ctx.setLineDash([4, 3]);
            const px = Math.round(x(iaf)) + 0.5;
            ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, bottom); ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = IAF_COLOR;
            ctx.font = "12px system-ui";
            ctx.fillText("IAF " + iaf.toFixed(2), px + 3, bottom - 22);
        }
        const texts = [];
        channel.bands.forEach((band, b) => {
            const key = "peak" + b;
            if (band.peak === null) {
                canvas.dataset[key] = "none";
                texts.push(band.low + "–" + band.high + " Hz: no peak");
                return;
            }
            canvas.dataset[key] = band.peak.toFixed(3);
            ctx.strokeStyle = PEAK_COLOR;
            ctx.lineWidth = 2;
            const px = Math.round(x(band.peak)) + 0.5;
            ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, bottom); ctx.stroke();
            ctx.fillStyle = "#007a00";
            ctx.font = "bold 12px system-ui";
            ctx.fillText(band.peak.toFixed(2), px + 3, top + 12 + 14 * b);
            texts.push(band.low + "–" + band.high + " Hz: " + band.peak.toFixed(2) + " Hz");
        });
        if (iaf !== null) texts.push("IAF " + iaf.toFixed(2) + " Hz");
        ctx.fillStyle = "#222";
        ctx.font = "bold 13px system-ui";
        ctx.fillText(channel.label + (channel.usable ? "" : " (unusable)"), left + 6, bottom - 6);
        canvas.dataset.plotLeft = left;
        canvas.dataset.plotRight = right;
        canvas.dataset.fmax = fmax;
        canvas.dataset.time = frame.time.toFixed(3);
        $("spectrum-caption-" + index).textContent = channel.label + " · " + texts.join(" · ");
    });
}

// MARK: - Indicators

function applyIndicator(indicator) {
    view.indicators.push(indicator);
    if (!view.spectrum || view.spectrum.time <= indicator.time || view.spectrum.baseline !== "collecting") {
        showBaseline("complete", 1);
    }
    const zone = $("zone");
    delete zone.dataset.waiting;
    zone.textContent = indicator.zone + " " + Math.round(indicator.percent * 100) + "%";
    zone.dataset.zone = indicator.zone;
    zone.dataset.percent = indicator.percent;
    zone.style.background = ZONE_COLORS[indicator.zone] || "#eee";
    const colors = $("colors");
    colors.replaceChildren();
    indicator.colors.forEach((color) => {
        const box = document.createElement("div");
        box.dataset.label = color.label;
        box.dataset.zone = color.zone === null ? "" : color.zone;
        box.style.background = color.zone === null ? "#eee" : ZONE_COLORS[color.zone];
        box.textContent = color.label + ": " + (color.zone === null ? "left out"
            : color.zone + " " + Math.round(color.percent * 100) + "%");
        colors.append(box);
    });
    const item = document.createElement("li");
    item.dataset.time = indicator.time;
    item.dataset.zone = indicator.zone;
    item.dataset.percent = indicator.percent;
    item.textContent = indicator.time.toFixed(1) + " s: " + indicator.zone + " " + Math.round(indicator.percent * 100) + "%";
    $("timeline").append(item);
    // The timeline keeps as many entries as the hub does; older ones only count in the summary above it.
    if (view.hello && view.indicators.length > view.hello.timelineEntries) {
        const old = view.indicators.shift();
        $("timeline").firstElementChild.remove();
        if (!view.earlier) view.earlier = { count: 0, from: old.time, to: old.time, zones: {} };
        view.earlier.count += 1;
        view.earlier.to = old.time;
        view.earlier.zones[old.zone] = (view.earlier.zones[old.zone] || 0) + 1;
        showEarlier();
    }
}

function showEarlier() {
    const line = $("timeline-earlier");
    line.hidden = !view.earlier;
    if (!view.earlier) return;
    const zones = Object.entries(view.earlier.zones).map(([zone, count]) => zone + " " + count).join(", ");
    line.dataset.count = view.earlier.count;
    line.textContent = "Earlier: " + view.earlier.count + " indicators from " + view.earlier.from.toFixed(1) + " s to "
        + view.earlier.to.toFixed(1) + " s (" + zones + ")";
}

function drawTimeline() {
    const canvas = $("timeline-canvas");
    const ctx = canvas.getContext("2d");
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (!view.hello || view.indicators.length === 0) return;
    const period = view.hello.engine.indicatorSeconds;
    const first = view.indicators[0].time - period;
    const last = Math.max(view.indicators[view.indicators.length - 1].time, first + 60);
    const left = 10, right = canvas.width - 10;
    const x = (t) => left + (t - first) / (last - first) * (right - left);
    for (const indicator of view.indicators) {
        ctx.fillStyle = ZONE_COLORS[indicator.zone] || "#eee";
        const height = 20 + 40 * indicator.percent;
        ctx.fillRect(x(indicator.time - period), 60 - height, Math.max(1, x(indicator.time) - x(indicator.time - period)), height);
    }
    ctx.fillStyle = "#666";
    ctx.font = "11px system-ui";
    ctx.fillText(first.toFixed(0) + " s", left, 84);
    ctx.fillText(last.toFixed(0) + " s", right - 40, 84);
    let offset = 120;
    for (const [zone, color] of Object.entries(ZONE_COLORS)) {
        ctx.fillStyle = color; ctx.fillRect(offset, 74, 10, 10);
        ctx.fillStyle = "#444"; ctx.fillText(zone, offset + 14, 84);
        offset += 130;
    }
}

// MARK: - Status

function applyStatus(status) {
    view.status.push(status);
    const item = document.createElement("li");
    item.dataset.code = status.code === null ? "" : status.code;
    item.dataset.name = status.name;
    const time = new Date(status.time * 1000).toLocaleTimeString();
    // A sentence for a person first; the SDK's code and constant name stay beside it for whoever searches for them.
    const source = document.createElement("small");
    source.textContent = " (" + (status.code === null ? "" : "code " + status.code + ", ") + status.name + ")";
    item.append(time + " · " + status.message, source);
    $("status-log").append(item);
}

function applyBattery(level) {
    view.battery = level;
    $("battery").dataset.level = level;
    $("battery").textContent = level + " %";
}

const STAT_ROWS = [
    ["received", "samples received"], ["delivered", "samples delivered"], ["dropped", "dropped (ring overflow)"],
    ["gapRecords", "gap records"], ["missingFrames", "samples in gaps"], ["occupancy", "ring occupancy"],
    ["peakOccupancy", "ring peak occupancy"], ["capacity", "ring capacity"], ["latencyP50", "latency p50 (ms)"],
    ["latencyP99", "latency p99 (ms)"], ["latencyMax", "latency max (ms)"], ["elapsed", "elapsed (s)"],
    ["viewers", "viewers"], ["viewRingDropped", "view: samples skipped by the hub"],
];

function applyStats(stats) {
    view.stats = stats;
    const table = $("stats");
    if (table.rows.length === 0) {
        for (const [key, label] of STAT_ROWS) {
            const row = table.insertRow();
            row.insertCell().textContent = label;
            const cell = row.insertCell();
            cell.id = "stat-" + key;
        }
    }
    for (const [key] of STAT_ROWS) {
        const cell = $("stat-" + key);
        cell.dataset.value = stats[key];
        cell.textContent = stats[key];
    }
    $("raw-dropped").textContent = stats.dropped;
    $("raw-gaps").textContent = stats.gapRecords;
    $("raw-missing").textContent = stats.missingFrames;
}

function applyEnd(end) {
    view.ended = end;
    $("ended").hidden = false;
    $("ended").textContent = "run ended — " + end.summary;
    document.body.dataset.ended = "true";
    showConnection("run ended", "ended");
}

// MARK: - Band powers

// One window's band powers: a row per channel, a cell per band with a bar of its relative power (% of the bands'
// sum), the percent, and the absolute power (also the cell's tooltip). The panel is plain DOM, rebuilt per message.
function applyBandPowers(powers) {
    const table = $("band-powers");
    const head = document.createElement("tr");
    head.append(document.createElement("th"));
    for (const band of powers.bands) {
        const th = document.createElement("th");
        th.textContent = band.name + " " + band.low + "–" + band.high + " Hz";
        head.append(th);
    }
    const rows = [head];
    powers.channels.forEach((channel, index) => {
        const row = document.createElement("tr");
        const label = document.createElement("th");
        label.textContent = channel.label;
        label.style.color = CHANNEL_COLORS[index % CHANNEL_COLORS.length];
        row.append(label);
        powers.bands.forEach((band, b) => {
            const relative = channel.relative[b];
            const absolute = channel.absolute[b];
            const cell = document.createElement("td");
            cell.dataset.band = band.name;
            cell.dataset.relative = relative === null ? "" : String(relative);
            cell.dataset.absolute = absolute === null ? "" : String(absolute);
            cell.title = channel.label + " " + band.name + ": "
                + (absolute === null ? "–" : absolute.toPrecision(4)) + " " + powers.unit;
            const bar = document.createElement("div");
            bar.className = "band-bar";
            bar.style.width = (relative === null ? 0 : Math.max(0, Math.min(100, relative))) + "%";
            const text = document.createElement("span");
            text.textContent = (relative === null ? "–" : relative.toFixed(1) + " %") + " · "
                + (absolute === null ? "–" : absolute >= 100 ? absolute.toFixed(0) : absolute.toPrecision(3)) + " "
                + powers.unit;
            cell.append(bar, text);
            row.append(cell);
        });
        rows.push(row);
    });
    table.replaceChildren(...rows);
    $("band-powers-note").textContent = "window ending at " + powers.time.toFixed(1) + " s · absolute power "
        + "(" + powers.unit + ", the PSD summed over LO ≤ f < HI) and its share of the bands' sum";
}

// MARK: - Tabs and drawing

function formatNumber(value) {
    return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function showTab(name) {
    view.tab = name;
    for (const button of document.querySelectorAll(".tab")) button.classList.toggle("active", button.dataset.tab === name);
    for (const panel of document.querySelectorAll(".panel")) panel.classList.toggle("active", panel.id === name);
    view.dirty = true;
}

function frame() {
    if (view.dirty) {
        view.dirty = false;
        if (view.tab === "raw") drawRaw();
        if (view.tab === "spectrum") drawSpectra();
        if (view.tab === "indicators") drawTimeline();
    }
    requestAnimationFrame(frame);
}

for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => showTab(button.dataset.tab));
$("span").addEventListener("change", () => { view.dirty = true; });
$("scale").addEventListener("change", () => { view.dirty = true; });
$("display-filter").addEventListener("change", () => { view.dirty = true; });
showTab(location.hash ? location.hash.slice(1) : "raw");
// Opened with ?token=…: the server has set its cookie with this page, so the token leaves the address bar and the
// history (a bookmark or a screen share does not carry it).
if (new URLSearchParams(location.search).has("token")) {
    history.replaceState(null, "", location.pathname + location.hash);
}
connect();
requestAnimationFrame(frame);
