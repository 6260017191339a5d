// Requests that arrive before the first analysis of the home wait for it, bounded (10 s in the
// server). The bound is driven here by a timer the test fires itself: no waiting on the clock.
import * as assert from 'node:assert/strict';
import type { CodeAction, CodeLens, Hover, MarkupContent } from 'vscode-languageserver/node';
import { FirstAnalysis, type StartTimer } from '../../../server/lsp/firstAnalysis';
import { actionsStillReading, hoverStillReading, lensesStillReading, STILL_READING } from '../../../server/lsp/stillReading';

/** A timer the test fires: what was started, for how long, and whether it was cancelled. */
class ManualTimers {
  readonly started: Array<{ ms: number; fire: () => void; cancelled: boolean }> = [];
  readonly start: StartTimer = (ms, fire) => {
    const timer = { ms, fire, cancelled: false };
    this.started.push(timer);
    return () => void (timer.cancelled = true);
  };
  fireAll(): void {
    for (const t of this.started) if (!t.cancelled) t.fire();
  }
}

describe('lsp: waiting for the first analysis', () => {
  it('waits 10 s at most by default (the server takes the default)', () => {
    const timers = new ManualTimers();
    void new FirstAnalysis(undefined, timers.start).answer(() => undefined);
    assert.deepEqual(timers.started.map((t) => t.ms), [10_000]);
  });

  it('answers at once, without a promise, once the analysis has finished', () => {
    const gate = new FirstAnalysis(10_000, new ManualTimers().start);
    gate.finish();
    assert.equal(gate.answer((running) => (running ? 'still running' : 'real')), 'real');
  });

  it('holds an early request until the analysis finishes, then gives the real answer and stops its timer', async () => {
    const timers = new ManualTimers();
    const gate = new FirstAnalysis(10_000, timers.start);
    let analysed = false;
    const early = gate.answer((running) => (running ? 'still running' : analysed ? 'real' : 'empty'));
    assert.ok(early instanceof Promise);
    assert.deepEqual(timers.started.map((t) => t.ms), [10_000]);
    analysed = true;
    gate.finish();
    assert.equal(await early, 'real');
    assert.equal(timers.started[0]!.cancelled, true);
  });

  it('past the limit, answers with what is known and says the analysis still runs; finishing later answers nothing twice', async () => {
    const timers = new ManualTimers();
    const gate = new FirstAnalysis(10_000, timers.start);
    const calls: boolean[] = [];
    const early = gate.answer((running) => (calls.push(running), running ? 'known so far' : 'real'));
    timers.fireAll();
    assert.equal(await early, 'known so far');
    gate.finish();
    assert.deepEqual(calls, [true]);
    assert.equal(gate.answer((running) => (running ? 'still running' : 'real')), 'real');
  });

  it('hands an error of the answer to the request', async () => {
    const gate = new FirstAnalysis(10_000, new ManualTimers().start);
    const early = gate.answer(() => {
      throw new Error('boom');
    });
    gate.finish();
    await assert.rejects(Promise.resolve(early), /boom/);
  });

  it('says in each feature’s form that the sessions are still being read, after what is known', () => {
    const known: Hover = { contents: { kind: 'markdown', value: '**Hermes · stable tier**' } };
    assert.equal((hoverStillReading(known).contents as MarkupContent).value, `**Hermes · stable tier**\n\n_${STILL_READING}_`);
    assert.equal((hoverStillReading(null).contents as MarkupContent).value, `_${STILL_READING}_`);
    const lens: CodeLens = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: 'known', command: 'x' } };
    assert.deepEqual(lensesStillReading([lens]).map((l) => l.command!.title), ['known', 'Hermes: still reading the sessions…']);
    const [word] = actionsStillReading([] as CodeAction[]);
    assert.equal(word!.disabled!.reason, STILL_READING);
  });
});
