import Foundation
import Testing

/// `axon view` in headless Chromium (acceptance 1–4 and 6 of the live view): each test starts the built `axon`,
/// drives a throw-away Chromium profile through scripts/view-browser.py, asserts on the page's DOM, data attributes
/// and screenshot pixels, and leaves a PNG of every tab in .build/view-screenshots/. About 45 s in all.
@Suite(
    .serialized,
    .enabled(if: ViewPaths.chromiumInstalled, "chromium is not installed (scripts/install-deps.sh --test installs it; make test runs that)"))
struct LiveViewBrowserTests {
    static let canvas = "document.getElementById('raw-canvas').dataset"

    /// Acceptance 1: the test sequence at 10.5 Hz — no console error, 4 traces moving, the green line of 7–13 Hz at
    /// 10.5 ± 0.1 Hz on every channel (DOM and pixels), baseline progress then a zone; a late viewer gets the past.
    @Test func testSequenceShowsTracesPeaksBaselineAndZone() throws {
        let view = try ViewProcess([
            "test-sequence:10.5", "--port", "0", "--baseline", "8", "--indicator", "2", "--seconds", "60",
        ])
        defer { view.stop() }
        let url = try view.url()
        // x of a frequency on a spectrum canvas, from the plot geometry the page publishes.
        func x(_ frequency: Double, _ offset: Int) -> String {
            "(d => +d.plotLeft + \(frequency) / +d.fmax * (d.plotRight - d.plotLeft) + \(offset))"
                + "(document.getElementById('spectrum-CH').dataset)"
        }
        var steps: [[String: Any]] = [
            Step.connected,
            Step.wait("document.getElementById('baseline').dataset.state === 'collecting' && "
                + "+document.getElementById('baseline').dataset.progress > 0"),
            Step.eval("+document.getElementById('baseline').dataset.progress", as: "progress"),
            Step.eval("document.getElementById('baseline-text').textContent", as: "baselineText"),
            // The empty indicator boxes say why while the baseline collects.
            Step.eval("document.getElementById('zone').textContent", as: "zoneWaiting"),
            Step.wait("\(Self.canvas).traces === '4'"),
            Step.eval("window.axonNewest1 = +\(Self.canvas).newest", as: "newest1"),
            // The traces move: wait for a newer sample than the one just read (a loaded machine may take a while).
            Step.wait("+\(Self.canvas).newest > window.axonNewest1 && +\(Self.canvas).messages > 5"),
            Step.eval("[+\(Self.canvas).newest, +\(Self.canvas).traces]", as: "newest2"),
            Step.screenshot("test-sequence-raw.png"),
            Step.click("#tab-spectrum"),
            Step.wait("[0,1,2,3].every(i => { const c = document.getElementById('spectrum-' + i); "
                + "return c && c.dataset.peak1 && c.dataset.peak1 !== 'none'; })"),
            Step.eval("[0,1,2,3].map(i => +document.getElementById('spectrum-' + i).dataset.peak1)", as: "peaks"),
            Step.eval("document.getElementById('spectrum-0').dataset.yUnit", as: "yUnit"),
            Step.screenshot("test-sequence-spectrum.png"),
        ]
        for channel in 0..<4 {
            let offsets = [-1, 0, 1, -8, 8]
            steps.append(Step.eval(
                "[" + offsets.map { x(10.5, $0).replacingOccurrences(of: "CH", with: "\(channel)") }
                    .joined(separator: ",") + "]", as: "xs\(channel)"))
        }
        let first = try BrowserRun(url: url, steps: steps)
        #expect(first.ok, "\(first.failures)")
        #expect(first.errors.isEmpty, "console errors: \(first.errors)")
        let progress = try #require(first.number("progress"))
        #expect(progress > 0 && progress < 1)
        #expect((first.results["baselineText"] as? String ?? "").hasPrefix("collecting"))
        let waiting = first.results["zoneWaiting"] as? String ?? ""
        #expect(waiting.hasPrefix("after the baseline: ") && waiting.hasSuffix(" s to go"), "\(waiting)")
        #expect(first.results["yUnit"] as? String == "µV² per bin")
        let newest1 = try #require(first.number("newest1"))
        let newest2 = try #require(first.results["newest2"] as? [Double])
        #expect(newest2[0] > newest1, "the traces did not move")
        #expect(newest2[1] == 4)
        let peaks = try #require(first.results["peaks"] as? [Double])
        #expect(peaks.count == 4)
        for peak in peaks { #expect(abs(peak - 10.5) <= 0.1, "7–13 Hz peak \(peak)") }

        // The pixels: the green line is in the column of 10.5 Hz (±1 px = ±0.08 Hz), and not 8 px (0.6 Hz) aside.
        var pixelSteps: [[String: Any]] = [Step.connected, Step.click("#tab-spectrum"), Step.wait(
            "[0,1,2,3].every(i => { const c = document.getElementById('spectrum-' + i); return c && c.dataset.peak1; })")]
        for channel in 0..<4 {
            let xs = try #require(first.results["xs\(channel)"] as? [Double])
            pixelSteps.append([
                "columns": "#spectrum-\(channel)", "xs": xs, "name": "green\(channel)", "png": "spectrum-channel-\(channel).png",
            ])
        }
        pixelSteps += [
            Step.click("#tab-indicators"),
            Step.wait("document.getElementById('zone').dataset.zone !== ''", timeout: 30),
            Step.eval("[document.getElementById('baseline').dataset.state, document.getElementById('zone').dataset.zone, "
                + "document.querySelectorAll('#colors div').length, document.querySelectorAll('#timeline li').length]",
                as: "zone"),
            Step.screenshot("test-sequence-indicators.png"),
            Step.click("#tab-status"),
            Step.wait("document.querySelectorAll('#status-log li').length >= 2 && document.getElementById('battery').dataset.level !== ''"),
            Step.eval("[...document.querySelectorAll('#status-log li')].map(li => li.dataset.name)", as: "status"),
            Step.eval("[...document.querySelectorAll('#status-log li')].map(li => li.textContent)", as: "statusText"),
            Step.screenshot("test-sequence-status.png"),
            // A viewer that connects after 12 s got the last 10 s of raw data in its hello.
            Step.eval("(p => p[p.length - 1][0] - p[0][0])(view.hello.raw.points)", as: "history"),
        ]
        #expect(view.line(containing: "── 12.0 s", timeout: 30) != nil, "\(view.lines)")
        let second = try BrowserRun(url: url, steps: pixelSteps)
        #expect(second.ok, "\(second.failures)")
        #expect(second.errors.isEmpty, "console errors: \(second.errors)")
        for channel in 0..<4 {
            let green = try #require(second.results["green\(channel)"] as? [String: Int])
            let xs = try #require(first.results["xs\(channel)"] as? [Double])
            let counts = xs.map { x in green.first { Double($0.key) == x }?.value ?? 0 }
            #expect(counts[0...2].max()! >= 150, "channel \(channel): green pixels per column \(counts)")
            #expect(counts[3] < 20 && counts[4] < 20, "channel \(channel): green pixels per column \(counts)")
        }
        let zone = try #require(second.results["zone"] as? [Any])
        #expect(zone[0] as? String == "complete")
        #expect(!(zone[1] as? String ?? "").isEmpty)
        #expect(zone[2] as? Int == 4)
        #expect((zone[3] as? Int ?? 0) >= 1)
        let status = try #require(second.results["status"] as? [String])
        #expect(status.contains("CBManagerMessage_DataTransferStarted"))
        // A status line reads as a sentence, with the SDK's code and name after it.
        let lines = try #require(second.results["statusText"] as? [String])
        #expect(lines.contains { $0.hasSuffix(" · Data transfer started (code 8, CBManagerMessage_DataTransferStarted)") },
            "\(lines)")
        #expect(try #require(second.number("history")) >= 9.5)
    }

    /// The spectrum tab's band powers panel: with `--bands theta=4-8,alpha=8-13,beta=13-30` and the 10 Hz test
    /// sequence (a 50 µV sine: 1250 µV² in alpha), every channel's cells hold numbers, the alpha share is above 95 %
    /// and the shares add up to 100 %.
    @Test func bandPowersPanelShowsNumbers() throws {
        let view = try ViewProcess([
            "test-sequence:10", "--port", "0", "--baseline", "8", "--seconds", "30",
            "--bands", "theta=4-8,alpha=8-13,beta=13-30",
        ])
        defer { view.stop() }
        let cells = "[...document.querySelectorAll('#band-powers td[data-relative]')]"
        let run = try BrowserRun(url: try view.url(), steps: [
            Step.connected,
            Step.click("#tab-spectrum"),
            Step.wait("\(cells).length === 12 && \(cells).every(c => c.dataset.relative !== '')"),
            Step.eval("[...document.querySelectorAll('#band-powers tr:first-child th')].map(th => th.textContent)",
                as: "headers"),
            Step.eval("\(cells).map(c => [c.dataset.band, +c.dataset.absolute, +c.dataset.relative, c.textContent])",
                as: "cells"),
            Step.screenshot("test-sequence-band-powers.png"),
        ])
        #expect(run.ok, "\(run.failures)")
        #expect(run.errors.isEmpty, "console errors: \(run.errors)")
        #expect(run.results["headers"] as? [String] == ["", "theta 4–8 Hz", "alpha 8–13 Hz", "beta 13–30 Hz"])
        let rows = try #require(run.results["cells"] as? [[Any]])
        #expect(rows.count == 12)
        for channel in 0..<4 {
            let row = rows[(channel * 3)..<(channel * 3 + 3)]
            #expect(row.map { $0[0] as? String } == ["theta", "alpha", "beta"])
            let absolute = row.map { $0[1] as? Double ?? .nan }
            let relative = row.map { $0[2] as? Double ?? .nan }
            #expect(absolute.allSatisfy { $0.isFinite && $0 >= 0 }, "\(row)")
            #expect(abs(absolute[1] - 1250) < 125, "alpha \(absolute[1]) µV²")
            #expect(relative[1] > 95, "alpha share \(relative[1]) %")
            #expect(abs(relative.reduce(0, +) - 100) < 0.3, "shares \(relative)")
            #expect((row.dropFirst().first?[3] as? String ?? "").contains("%"), "\(row)")
        }
    }

    /// Acceptance 2: the OpenBCI eyes-closed recording at 8× — the zone timeline shows Relaxation while the eyes are
    /// closed (≈28–76 s).
    @Test func eyesClosedReplayShowsRelaxation() throws {
        let view = try ViewProcess([
            ViewPaths.openBCI, "--channels", "EXG2,EXG3,EXG6,EXG7", "--to", "86", "--speed", "8", "--baseline", "12",
            "--port", "0",
        ])
        defer { view.stop() }
        let run = try BrowserRun(url: try view.url(), steps: [
            Step.connected,
            Step.wait("document.body.dataset.ended === 'true'", timeout: 60),
            Step.eval("[document.getElementById('connection').textContent, document.getElementById('connection').dataset.state]",
                as: "connection"),
            Step.click("#tab-indicators"),
            Step.wait("document.querySelectorAll('#timeline li').length > 0"),
            Step.eval("[...document.querySelectorAll('#timeline li')].map(li => [+li.dataset.time, li.dataset.zone])",
                as: "timeline"),
            Step.screenshot("eyes-closed-indicators.png"),
            Step.click("#tab-raw"),
            Step.screenshot("eyes-closed-raw.png"),
            Step.click("#tab-spectrum"),
            Step.wait("document.getElementById('spectrum-2').dataset.iaf !== undefined"),
            Step.eval("[2,3].map(i => document.getElementById('spectrum-' + i).dataset.iaf)", as: "iaf"),
            Step.eval("document.getElementById('alpha-summary').textContent", as: "alphaSummary"),
            Step.screenshot("eyes-closed-spectrum.png"),
        ])
        #expect(run.ok, "\(run.failures)")
        #expect(run.errors.isEmpty, "console errors: \(run.errors)")
        let timeline = try #require(run.results["timeline"] as? [[Any]])
        let entries = timeline.compactMap { entry -> (Double, String)? in
            guard let time = entry[0] as? Double, let zone = entry[1] as? String else { return nil }
            return (time, zone)
        }
        // After the run's end the header no longer says "live".
        #expect(run.results["connection"] as? [String] == ["run ended", "ended"], "\(run.results["connection"] ?? "")")
        // The terminal shows the same indicators the page does.
        let printed = view.lines.filter { $0.contains("── ") && $0.contains(" zone ") }
        #expect(printed.count == entries.count)
        let closed = entries.filter { $0.0 > 38 && $0.0 <= 76 }
        #expect(!closed.isEmpty)
        #expect(closed.contains { $0.1 == "Relaxation" }, "eyes-closed zones: \(closed)")
        #expect(closed.filter { $0.1.hasSuffix("Relaxation") }.count * 2 > closed.count, "eyes-closed zones: \(closed)")
        // The spectrum tab marks EXG6's and EXG7's individual alpha frequency (11.5–11.8 Hz on this recording).
        let iaf = try #require(run.results["iaf"] as? [String])
        for value in iaf { #expect(Double(value).map { abs($0 - 11.6) < 0.4 } == true, "IAF on the page: \(iaf)") }
        #expect((run.results["alphaSummary"] as? String ?? "").contains("clean windows"), "\(run.results)")
    }

    /// The OpenBCI recording as `axon demo --view` shows it (its four channels, eyes closed from ≈28 s): the traces are
    /// filtered for display by default (1–50 Hz, a notch at the 60 Hz the hub measures), each spans a good part of
    /// its lane, and the switch shows the raw samples, whose 25 mV offsets flatten the traces.
    @Test func cytonTracesFilteredForDisplay() throws {
        let view = try ViewProcess([
            ViewPaths.openBCI, "--channels", "EXG2,EXG6,EXG3,EXG7", "--from", "30", "--to", "70", "--speed", "4",
            "--baseline", "12", "--port", "0",
        ])
        defer { view.stop() }
        #expect(view.line(containing: "traces filtered for display only", timeout: 30) != nil, "\(view.lines)")
        let run = try BrowserRun(url: try view.url(), steps: [
            Step.connected,
            Step.wait("view.display && view.display.mains === 60", timeout: 30),
            // Ten seconds after the notch joined: the traces on screen are all filtered with it.
            Step.wait("view.points.length && view.points[view.points.length - 1][0] > 50", timeout: 40),
            Step.eval("document.getElementById('display-filter-text').textContent", as: "label"),
            Step.eval("[\(Self.canvas).filtered, \(Self.canvas).spans]", as: "filtered"),
            Step.screenshot("cyton-filtered-raw.png"),
            Step.click("#display-filter"),
            Step.wait("\(Self.canvas).filtered === 'false'"),
            Step.eval("\(Self.canvas).spans", as: "unfiltered"),
            Step.screenshot("cyton-unfiltered-raw.png"),
        ])
        #expect(run.ok, "\(run.failures)")
        #expect(run.errors.isEmpty, "console errors: \(run.errors)")
        #expect(run.results["label"] as? String == "(1–50 Hz band-pass, notch 60 Hz, measured)")
        let filtered = try #require(run.results["filtered"] as? [String])
        #expect(filtered[0] == "true")
        let spans = filtered[1].split(separator: ",").compactMap { Double($0) }
        #expect(spans.count == 4 && spans.allSatisfy { $0 >= 0.3 }, "filtered traces' share of their lanes: \(spans)")
        let unfiltered = (run.results["unfiltered"] as? String ?? "").split(separator: ",").compactMap { Double($0) }
        #expect(unfiltered.count == 4 && unfiltered.contains { $0 < 0.1 }, "raw traces' share of their lanes: \(unfiltered)")
    }

    /// Acceptance 3: notifications lost by the simulated headset are a break in the trace, and the Status tab's
    /// counters are the pipeline's own.
    @Test func packetLossIsABreakAndCountersMatchThePipeline() throws {
        let view = try ViewProcess([
            "test-sequence:10", "--port", "0", "--seconds", "8", "--lose-packets", "100,101,102,103,104,150",
            "--baseline", "4", "--indicator", "2",
        ])
        defer { view.stop() }
        let run = try BrowserRun(url: try view.url(), steps: [
            Step.connected,
            Step.wait("document.body.dataset.ended === 'true'", timeout: 30),
            Step.eval("[+\(Self.canvas).breaks, +\(Self.canvas).gaps, view.gaps.map(g => [g.time, g.missing, g.cause])]",
                as: "breaks"),
            Step.eval("(() => { const v = view.points.filter(p => p[1] === null); return v.length; })()", as: "nullPoints"),
            Step.screenshot("packet-loss-raw.png"),
            Step.click("#tab-status"),
            Step.eval("['received','delivered','dropped','gapRecords','missingFrames'].map(k => "
                + "+document.getElementById('stat-' + k).dataset.value)", as: "stats"),
            Step.eval("[...document.querySelectorAll('#status-log li')].filter(li => li.dataset.name === "
                + "'rejected notification').length", as: "rejected"),
            Step.screenshot("packet-loss-status.png"),
        ])
        #expect(run.ok, "\(run.failures)")
        #expect(run.errors.isEmpty, "console errors: \(run.errors)")
        let breaks = try #require(run.results["breaks"] as? [Any])
        let gaps = try #require(breaks[2] as? [[Any]])
        // Notifications 100–104 (samples 1000–1049) and 150 (1500–1509): two gap records, 50 and 10 samples.
        #expect(gaps.map { $0[1] as? Int } == [50, 10], "\(gaps)")
        #expect(gaps.allSatisfy { $0[2] as? String == "deviceCounter" })
        #expect(abs((gaps.first?[0] as? Double ?? 0) - 4.0) < 0.05)
        #expect(breaks[0] as? Int == 2)
        #expect(try #require(run.results["nullPoints"] as? Int) == 2)
        #expect(run.results["rejected"] as? Int == 6)
        // "done: N samples through the engine, G gap records (M samples missing), D dropped"
        let done = try #require(view.line(containing: "done: ", timeout: 5))
        let numbers = done.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let stats = try #require(run.results["stats"] as? [Int])
        #expect(numbers.count >= 4)
        #expect(stats[1] == numbers[0], "delivered: page \(stats[1]), pipeline \(done)")
        #expect(stats[3] == numbers[1], "gap records: page \(stats[3]), pipeline \(done)")
        #expect(stats[4] == numbers[2], "missing: page \(stats[4]), pipeline \(done)")
        #expect(stats[2] == numbers[3], "dropped: page \(stats[2]), pipeline \(done)")
        #expect(stats[3] == 2 && stats[4] == 60)
        #expect(stats[0] == 8 * 250 - 60)
    }

    /// Another page on this machine — served by an http.server on another loopback port, opened in the same browser
    /// after the view's page has set its cookie — tries `fetch()` (with credentials, and `no-cors`) and
    /// `new WebSocket()` on the view: it reads nothing and no viewer connects. The view's own page has already taken
    /// the token out of the address bar, and its script cannot see the cookie (`HttpOnly`).
    @Test func anotherLoopbackPortCannotReadTheView() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (url, port) = (try view.url(), try view.port())
        let base = "http://127.0.0.1:\(port)"
        let attack = """
            <!DOCTYPE html><html><body><script>
            window.attack = { done: 0, fetch: "pending", noCors: "pending", socket: "pending", messages: 0 };
            fetch("\(base)/", { credentials: "include" }).then(r => r.text())
                .then(t => attack.fetch = "read " + t.length).catch(e => attack.fetch = "blocked: " + e.name)
                .finally(() => attack.done++);
            fetch("\(base)/app.js", { mode: "no-cors", credentials: "include" })
                .then(r => r.text().then(t => attack.noCors = r.type + " " + r.status + " " + t.length))
                .catch(e => attack.noCors = "blocked: " + e.name).finally(() => attack.done++);
            const socket = new WebSocket("ws://127.0.0.1:\(port)/ws");
            socket.onopen = () => { attack.socket = "open"; };
            socket.onmessage = () => { attack.messages++; };
            socket.onclose = (e) => { attack.socket += " closed " + e.code; attack.done++; };
            </script></body></html>
            """
        let run = try BrowserRun(url: url, steps: [
            Step.connected,
            Step.eval("location.href", as: "address"),
            Step.eval("document.cookie", as: "scriptCookie"),
            ["serve": attack, "name": "origin"],
            Step.wait("window.attack !== undefined && attack.done === 3"),
            Step.eval("[attack.fetch, attack.noCors, attack.socket, attack.messages]", as: "attack"),
        ])
        #expect(run.ok, "\(run.failures)")
        #expect(run.results["address"] as? String == base + "/", "the token stays in the address bar")
        #expect(run.results["scriptCookie"] as? String == "", "the page's script sees the cookie")
        let origin = try #require(run.results["origin"] as? String)
        #expect(origin.hasPrefix("http://127.0.0.1:") && origin != base)
        let result = try #require(run.results["attack"] as? [Any])
        let (fetched, noCors) = (result[0] as? String ?? "", result[1] as? String ?? "")
        let socket = result[2] as? String ?? ""
        #expect(fetched.hasPrefix("blocked"), "fetch with credentials: \(fetched)")
        #expect(noCors.hasPrefix("blocked") || noCors == "opaque 0 0", "no-cors fetch: \(noCors)")
        #expect(!socket.contains("open") && socket.contains("closed"), "WebSocket: \(socket)")
        #expect(result[3] as? Int == 0, "WebSocket messages: \(result[3])")
        #expect(view.stop() == 0)
        // Only the view's own page connected.
        let stopped = try #require(view.line(containing: "viewer connections served", timeout: 10))
        #expect(stopped.contains("(1 viewer connections served)"), "\(stopped)")
    }

    /// DNS rebinding in a real browser: Chromium resolves attacker.example to 127.0.0.1, as a rebinding domain's DNS
    /// would, and opens the view's port under that name. The view runs without a token (`--no-token`), so the `Host`
    /// check alone stands in the way: 403, no page, no viewer. The same browser at 127.0.0.1 gets the page.
    @Test func aRebindingNameGetsNothing() throws {
        let view = try ViewProcess(["test-sequence:10", "--no-token", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let port = try view.port()
        let rebound = try BrowserRun(url: "http://attacker.example:\(port)/", steps: [
            Step.wait("document.readyState === 'complete' && document.body !== null"),
            Step.eval("document.body.innerText", as: "text"),
            Step.eval("document.getElementById('connection') !== null", as: "page"),
            Step.eval("fetch('/ws').then(r => r.status).catch(e => 'blocked: ' + e.name)", as: "fetch"),
        ], resolve: ["attacker.example"])
        #expect(rebound.ok, "\(rebound.failures)")
        #expect((rebound.results["text"] as? String ?? "").hasPrefix("403: the Host header"), "\(rebound.results)")
        #expect(rebound.results["page"] as? Bool == false)
        #expect(rebound.results["fetch"] as? Int == 403, "\(rebound.results)")
        let own = try BrowserRun(url: "http://127.0.0.1:\(port)/", steps: [Step.connected])
        #expect(own.ok, "\(own.failures)")
        #expect(own.errors.isEmpty, "console errors: \(own.errors)")
        #expect(view.stop() == 0)
        let stopped = try #require(view.line(containing: "viewer connections served", timeout: 10))
        #expect(stopped.contains("(1 viewer connections served)"), "\(stopped)")
    }
}
