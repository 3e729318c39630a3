import { expect } from 'vitest';
import { SseEventSplitter } from '../../../shared/http/sse-event-splitter.ts';
import { readFixture } from '../../support/fixtures.ts';

/** The whole events of a recorded wire body (`.sse`), each with its original bytes. */
export function sseFixtureEvents(name: string): string[] {
  const splitter = new SseEventSplitter();
  const events = splitter.push(readFixture(`anthropic/${name}`));
  expect(splitter.flush()).toBe('');
  return events;
}

/** A vercel `.chunks.txt` recording as wire events: `event: <type>\ndata: <line>\n\n` (see fixtures/INDEX.md). */
export function chunksFixtureEvents(name: string): string[] {
  const lines = readFixture(`anthropic/${name}`).split('\n').filter((line) => line !== '');
  return lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
}

/** The recorded request body from a fixture's provenance file (its `request_body:` line). */
export function recordedRequestBody(name: string): string {
  const line = readFixture(`anthropic/${name}.source.txt`)
    .split('\n')
    .find((candidate) => candidate.startsWith('request_body: '));
  if (!line) throw new Error(`${name}.source.txt records no request body`);
  return line.slice('request_body: '.length);
}
