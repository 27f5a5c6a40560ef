// A segment's waveform on a canvas: the pre-roll shaded, the splice marked, a time ruler, zoom (drag
// to select, Ctrl+wheel, buttons) down to single samples, and playback of what is in view.
// The marker's x position (CSS px) is published as canvas.dataset.markerX for tests and tools.
// A segment heard while hark played draws two of these, the raw microphone above the
// cleaned signal, linked to one timeline (zoom one, both follow) and one scale, with hark's playback
// shaded on both; the shaded spans' x ranges are published as canvas.dataset.playbackX ("x0-x1 ...").

const RULER = 14; // px of time ruler at the top
const MIN_VIEW = 32; // samples: the closest zoom
const STEPS_MS = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000];

let audioCtx = null;
let playing = null; // the one Waveform currently playing

export class Waveform {
  constructor(canvas, { pcm, sampleRate, prerollSamples, spliceWarning, onChange, playback, scalePeak, liveColor }) {
    this.canvas = canvas;
    this.pcm = pcm;
    this.rate = sampleRate;
    this.preroll = prerollSamples;
    this.warn = Boolean(spliceWarning);
    this.onChange = onChange ?? (() => {});
    // Spans of hark's own playback, in samples from the first one; [] for most segments.
    this.playback = Array.isArray(playback) ? playback : [];
    this.liveColor = liveColor ?? '--wave-live';
    /** Waveforms on the same timeline: a zoom here moves them too. */
    this.peers = [];
    this.view = { start: 0, end: Math.max(1, pcm.length) };
    this.playhead = null;
    this.selection = null;
    this.hover = null;
    let peak = 0;
    for (let i = 0; i < pcm.length; i++) peak = Math.max(peak, Math.abs(pcm[i]));
    // Scale to the segment's own peak (at most 32x) so quiet speech is visible; jumps stay jumps.
    // Two tracks share one scale (the louder one's), so what the canceller removed shows as removed.
    this.scale = Math.min(32, 32768 / Math.max(scalePeak ?? peak, peak, 1024));
    this.bind();
    this.draw();
  }

  // ---- view ----

  get zoomed() {
    return this.view.start > 0 || this.view.end < this.pcm.length;
  }

  setView(start, end, fromPeer = false) {
    const n = this.pcm.length;
    let width = Math.max(MIN_VIEW, Math.min(n, end - start));
    let s = Math.max(0, Math.min(n - width, start));
    this.view = { start: s, end: s + width };
    this.draw();
    this.onChange(this.describe());
    if (!fromPeer) for (const p of this.peers) p.setView(s, s + width, true);
  }

  /** Put `other` on this one's timeline, both ways. */
  link(other) {
    this.peers.push(other);
    other.peers.push(this);
    other.setView(this.view.start, this.view.end, true);
  }

  fit() {
    this.setView(0, this.pcm.length);
  }

  zoomBy(factor, centre = (this.view.start + this.view.end) / 2) {
    const width = (this.view.end - this.view.start) / factor;
    const t = (centre - this.view.start) / (this.view.end - this.view.start);
    this.setView(centre - width * t, centre - width * t + width);
  }

  /** 150 ms either side of the splice: enough to see the join and the first phoneme. */
  focusSplice(ms = 150) {
    const half = (ms * this.rate) / 1000;
    this.setView(this.preroll - half, this.preroll + half);
  }

  describe() {
    const ms = (s) => (s * 1000) / this.rate;
    const span = ms(this.view.end - this.view.start);
    return this.zoomed
      ? `${ms(this.view.start).toFixed(0)}–${ms(this.view.end).toFixed(0)} ms (${span < 10 ? span.toFixed(2) : span.toFixed(0)} ms in view)`
      : `${span.toFixed(0)} ms (all)`;
  }

  // ---- drawing ----

  xOf(sample, width) {
    return ((sample - this.view.start) / (this.view.end - this.view.start)) * width;
  }

  sampleAt(x) {
    return this.view.start + (x / this.canvas.clientWidth) * (this.view.end - this.view.start);
  }

  draw() {
    const canvas = this.canvas;
    const W = canvas.clientWidth;
    const H = canvas.clientHeight;
    if (W === 0 || H === 0) return;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
      canvas.width = Math.round(W * dpr);
      canvas.height = Math.round(H * dpr);
    }
    const css = getComputedStyle(canvas);
    const color = (name) => css.getPropertyValue(name).trim();
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { start, end } = this.view;
    const mid = RULER + (H - RULER) / 2;
    const amp = ((H - RULER) / 2 - 2) * this.scale;
    const x = (s) => this.xOf(s, W);

    ctx.fillStyle = color('--wave-bg');
    ctx.fillRect(0, 0, W, H);
    // pre-roll region
    const px0 = Math.max(0, x(0));
    const px1 = Math.min(W, x(this.preroll));
    if (px1 > px0) {
      ctx.fillStyle = color('--preroll-bg');
      ctx.fillRect(px0, RULER, px1 - px0, H - RULER);
      if (px1 - px0 > 60) {
        ctx.fillStyle = color('--wave-text');
        ctx.font = '10px ui-monospace, monospace';
        ctx.textBaseline = 'bottom';
        ctx.fillText('pre-roll', px0 + 4, H - 3);
      }
    }
    // hark's own playback: where the canceller had a reference to take out
    const shaded = [];
    for (const span of this.playback) {
      const a = Math.max(0, x(span.start));
      const b = Math.min(W, x(span.end));
      if (b <= a) continue;
      ctx.fillStyle = color('--playback-bg');
      ctx.fillRect(a, RULER, Math.max(1, b - a), H - RULER);
      ctx.fillStyle = color('--playback-edge');
      ctx.fillRect(a, RULER, Math.max(1, b - a), 3);
      if (b - a > 80) {
        ctx.fillStyle = color('--wave-text');
        ctx.font = '10px ui-monospace, monospace';
        ctx.textBaseline = 'top';
        ctx.fillText('hark playing', a + 4, RULER + 14);
      }
      shaded.push(`${a.toFixed(1)}-${b.toFixed(1)}`);
    }
    canvas.dataset.playbackX = shaded.join(' ');
    this.drawRuler(ctx, W, H, color);
    ctx.fillStyle = color('--wave-axis');
    ctx.fillRect(0, Math.round(mid), W, 1);

    // waveform: min/max per pixel column when zoomed out, else a line through the samples
    // (below ~6 samples a pixel, bars look like noise where a line still shows the wave's shape)
    const spp = (end - start) / W;
    const pre = color('--wave-pre');
    const live = color(this.liveColor);
    if (spp >= 6) {
      for (let px = 0; px < W; px++) {
        const s0 = Math.floor(start + px * spp);
        const s1 = Math.max(s0 + 1, Math.floor(start + (px + 1) * spp));
        let lo = 32767;
        let hi = -32768;
        // from the previous column's last sample, so neighbouring columns join up
        for (let i = Math.max(0, s0 - 1); i < s1 && i < this.pcm.length; i++) {
          const v = this.pcm[i];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        if (lo > hi) continue;
        const y0 = mid - (hi / 32768) * amp;
        const y1 = mid - (lo / 32768) * amp;
        ctx.fillStyle = s0 < this.preroll ? pre : live;
        ctx.fillRect(px, clamp(y0, RULER, H), 1, Math.max(1, clamp(y1, RULER, H) - clamp(y0, RULER, H)));
      }
    } else {
      const first = Math.max(0, Math.floor(start));
      const last = Math.min(this.pcm.length - 1, Math.ceil(end));
      for (const [from, to, stroke] of [
        [first, Math.min(last, this.preroll - 1), pre],
        [Math.max(first, this.preroll - 1), last, live],
      ]) {
        if (to < from) continue;
        ctx.strokeStyle = stroke;
        ctx.lineWidth = 1.25;
        ctx.beginPath();
        for (let i = from; i <= to; i++) {
          const y = clamp(mid - (this.pcm[i] / 32768) * amp, RULER, H);
          if (i === from) ctx.moveTo(x(i), y);
          else ctx.lineTo(x(i), y);
        }
        ctx.stroke();
        if (spp < 0.25) {
          ctx.fillStyle = stroke;
          for (let i = from; i <= to; i++) ctx.fillRect(x(i) - 1.5, clamp(mid - (this.pcm[i] / 32768) * amp, RULER, H) - 1.5, 3, 3);
        }
      }
    }

    // the splice marker
    let markerX = '';
    if (this.preroll > 0 && this.preroll < this.pcm.length) {
      const mx = x(this.preroll);
      if (mx >= 0 && mx <= W) {
        markerX = mx.toFixed(1);
        ctx.fillStyle = color(this.warn ? '--marker-warn' : '--marker');
        ctx.fillRect(Math.round(mx) - 1, RULER, 2, H - RULER);
        ctx.font = '10px ui-monospace, monospace';
        ctx.textBaseline = 'top';
        const label = this.warn ? '⚠ splice jump' : 'splice';
        const tw = ctx.measureText(label).width;
        ctx.fillText(label, mx + 4 + tw > W ? mx - 4 - tw : mx + 4, RULER + 2);
      }
    }
    canvas.dataset.markerX = markerX;
    canvas.dataset.viewStart = String(Math.round(start));
    canvas.dataset.viewEnd = String(Math.round(end));

    if (this.selection) {
      const [a, b] = [Math.min(...this.selection), Math.max(...this.selection)];
      ctx.fillStyle = color('--selection');
      ctx.fillRect(a, RULER, b - a, H - RULER);
    }
    if (this.playhead !== null) {
      ctx.fillStyle = color('--playhead');
      ctx.fillRect(Math.round(x(this.playhead)), 0, 1, H);
    }
    if (this.hover !== null) {
      ctx.fillStyle = color('--wave-axis');
      ctx.fillRect(Math.round(this.hover), RULER, 1, H - RULER);
    }
  }

  drawRuler(ctx, W, H, color) {
    const msPerPx = ((this.view.end - this.view.start) * 1000) / this.rate / W;
    const step = STEPS_MS.find((s) => s / msPerPx >= 70) ?? STEPS_MS[STEPS_MS.length - 1];
    const startMs = (this.view.start * 1000) / this.rate;
    const endMs = (this.view.end * 1000) / this.rate;
    ctx.font = '10px ui-monospace, monospace';
    ctx.textBaseline = 'top';
    for (let t = Math.ceil(startMs / step) * step; t <= endMs; t += step) {
      const px = Math.round((t - startMs) / msPerPx);
      ctx.fillStyle = color('--wave-grid');
      ctx.fillRect(px, RULER, 1, H - RULER);
      if (px > W - 48) continue; // leave room for the unit
      ctx.fillStyle = color('--wave-text');
      ctx.fillText(step < 1 ? `${t.toFixed(1)}` : `${Math.round(t)}`, px + 3, 2);
    }
    ctx.fillStyle = color('--wave-text');
    const unit = 'ms';
    ctx.fillText(unit, W - ctx.measureText(unit).width - 3, 2);
  }

  // ---- interaction ----

  bind() {
    const c = this.canvas;
    let downX = null;
    const localX = (e) => e.clientX - c.getBoundingClientRect().left;
    c.addEventListener('mousedown', (e) => {
      downX = localX(e);
      this.selection = [downX, downX];
    });
    window.addEventListener('mouseup', (e) => {
      if (downX === null) return;
      const upX = localX(e);
      const moved = Math.abs(upX - downX) > 4;
      const [a, b] = [Math.min(downX, upX), Math.max(downX, upX)];
      downX = null;
      this.selection = null;
      if (moved) this.setView(this.sampleAt(Math.max(0, a)), this.sampleAt(Math.min(c.clientWidth, b)));
      else this.draw();
    });
    c.addEventListener('mousemove', (e) => {
      const px = localX(e);
      this.hover = px;
      if (downX !== null) this.selection = [downX, px];
      this.draw();
      const s = Math.floor(this.sampleAt(px));
      if (s >= 0 && s < this.pcm.length) {
        const ms = (s * 1000) / this.rate;
        const side = s < this.preroll ? 'pre-roll' : 'live';
        c.title = `${ms.toFixed(1)} ms · sample ${s} · ${(this.pcm[s] / 32768).toFixed(4)} · ${side}`;
      }
    });
    c.addEventListener('mouseleave', () => {
      this.hover = null;
      this.draw();
    });
    c.addEventListener('dblclick', () => this.fit());
    c.addEventListener(
      'wheel',
      (e) => {
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          this.zoomBy(e.deltaY < 0 ? 1.5 : 1 / 1.5, this.sampleAt(localX(e)));
        } else if (this.zoomed && (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY))) {
          e.preventDefault();
          const shift = ((e.shiftKey ? e.deltaY : e.deltaX) / c.clientWidth) * (this.view.end - this.view.start);
          this.setView(this.view.start + shift, this.view.end + shift);
        }
      },
      { passive: false },
    );
  }

  // ---- playback ----

  get isPlaying() {
    return playing === this;
  }

  /** Play what is in view (all of it when not zoomed); again to stop. Returns whether it is playing. */
  toggle(onEnd) {
    if (playing) {
      const was = playing;
      playing.stop();
      if (was === this) return false;
    }
    audioCtx ??= new AudioContext();
    const from = Math.floor(this.view.start);
    const to = Math.ceil(this.view.end);
    const buffer = audioCtx.createBuffer(1, Math.max(1, to - from), this.rate);
    const data = buffer.getChannelData(0);
    for (let i = from; i < to; i++) data[i - from] = this.pcm[i] / 32768;
    const source = audioCtx.createBufferSource();
    source.buffer = buffer;
    source.connect(audioCtx.destination);
    const t0 = audioCtx.currentTime;
    let frame = 0;
    const tick = () => {
      this.playhead = from + (audioCtx.currentTime - t0) * this.rate;
      this.draw();
      frame = requestAnimationFrame(tick);
    };
    this.stop = () => {
      source.onended = null;
      try {
        source.stop();
      } catch {}
      cancelAnimationFrame(frame);
      this.playhead = null;
      playing = null;
      this.draw();
      onEnd?.();
    };
    source.onended = () => this.stop();
    playing = this;
    source.start();
    frame = requestAnimationFrame(tick);
    return true;
  }

  stop() {}
}

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
