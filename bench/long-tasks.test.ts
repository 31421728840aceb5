// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { summarise } from './long-tasks';

const script = (start: number, duration: number, url: string, kind = 'module-script', invoker = url, fn = '') => ({
  start,
  duration,
  url,
  kind,
  invoker,
  fn,
});

describe('summarise', () => {
  it('keeps the tasks over 50 ms, longest first, each with the scripts that started in it, longest first', () => {
    const summary = summarise({
      tasks: [
        { start: 100, duration: 40 },
        { start: 200, duration: 300.4 },
        { start: 600, duration: 80 },
      ],
      scripts: [
        script(110, 30, 'http://localhost/assets/a.js'),
        script(200, 20, 'http://localhost/assets/small.js'),
        script(210, 250, 'http://localhost/assets/index-1.js'),
        script(610, 70, 'http://localhost/assets/react-1.js', 'event-listener', 'MessagePort.onmessage', 'S'),
      ],
    });
    expect(summary.longestMs).toBe(300);
    expect(summary.tasks).toEqual([
      {
        start: 200,
        duration: 300,
        scripts: [
          {
            file: '/assets/index-1.js',
            kind: 'module-script',
            invoker: 'http://localhost/assets/index-1.js',
            functionName: '',
            durationMs: 250,
          },
          {
            file: '/assets/small.js',
            kind: 'module-script',
            invoker: 'http://localhost/assets/small.js',
            functionName: '',
            durationMs: 20,
          },
        ],
      },
      {
        start: 600,
        duration: 80,
        scripts: [
          { file: '/assets/react-1.js', kind: 'event-listener', invoker: 'MessagePort.onmessage', functionName: 'S', durationMs: 70 },
        ],
      },
    ]);
  });

  it('a task without a script of its own (style, layout, parsing) lists none, and the browser’s callbacks have no file', () => {
    const summary = summarise({
      tasks: [{ start: 0, duration: 120 }],
      scripts: [script(500, 10, 'http://localhost/late.js'), script(5, 60, '', 'user-callback', 'PerformanceObserverCallback')],
    });
    expect(summary.tasks[0]!.scripts).toEqual([
      { file: '', kind: 'user-callback', invoker: 'PerformanceObserverCallback', functionName: '', durationMs: 60 },
    ]);
    expect(summarise({ tasks: [{ start: 0, duration: 51 }], scripts: [] }).tasks[0]!.scripts).toEqual([]);
    expect(summarise({ tasks: [], scripts: [] })).toEqual({ longestMs: 0, tasks: [] });
  });
});
