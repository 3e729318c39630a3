/*
 * WebM (Matroska) is EBML: elements of an ID and a size, each a variable-length integer, masters holding
 * further elements. Browsers' MediaRecorder writes it live, so its Segment and Clusters have no size
 * ("unknown", all ones) and its Info no Duration: the duration is read from the blocks' times then.
 */
const EBML_HEADER = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER = 0x1f43b675;
const CLUSTER_TIMECODE = 0xe7;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const SIMPLE_BLOCK = 0xa3;

/** Masters read into rather than over: what leads to the Info's duration and to the blocks. */
const READ_INTO = new Set([SEGMENT, INFO, CLUSTER, BLOCK_GROUP]);
const DEFAULT_TIMECODE_SCALE_NS = 1_000_000;

/**
 * The duration of a WebM (or Matroska) file: its Info's Duration when it has one, else the time of its last
 * block plus one block's spacing (the last frame's length, taken from the one before it), so a recording
 * written live is not billed as nothing. Undefined for anything else.
 */
export function webmDurationSeconds(bytes: Uint8Array): number | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = readElementHead(view, 0);
  if (!header || header.id !== EBML_HEADER || header.size === undefined || !isWebmDocType(view, header.dataStart, header.dataStart + header.size)) return undefined;
  let scale = DEFAULT_TIMECODE_SCALE_NS;
  let declared: number | undefined;
  let clusterTime = 0;
  let last: number | undefined;
  let spacing = 0;
  let position = header.dataStart + header.size;
  while (position < view.length) {
    const element = readElementHead(view, position);
    if (!element) break;
    if (READ_INTO.has(element.id)) {
      position = element.dataStart;
      continue;
    }
    // Any other element of unknown size cannot be stepped over: nothing after it can be read.
    if (element.size === undefined) break;
    const end = element.dataStart + element.size;
    if (element.id === TIMECODE_SCALE) scale = readUnsigned(view, element.dataStart, end) || DEFAULT_TIMECODE_SCALE_NS;
    else if (element.id === DURATION) declared = readFloat(view, element.dataStart, element.size);
    else if (element.id === CLUSTER_TIMECODE) clusterTime = readUnsigned(view, element.dataStart, end);
    else if (element.id === SIMPLE_BLOCK || element.id === BLOCK) {
      const time = blockTime(view, element.dataStart, end, clusterTime);
      if (time !== undefined && (last === undefined || time > last)) {
        if (last !== undefined) spacing = time - last;
        last = time;
      }
    }
    position = end;
  }
  const ticks = declared !== undefined && declared > 0 ? declared : last !== undefined ? last + spacing : undefined;
  return ticks === undefined || ticks <= 0 ? undefined : (ticks * scale) / 1e9;
}

function isWebmDocType(view: Buffer, start: number, end: number): boolean {
  for (let position = start; position < Math.min(end, view.length); ) {
    const element = readElementHead(view, position);
    if (!element || element.size === undefined) return false;
    if (element.id === DOC_TYPE) {
      const docType = view.toString('latin1', element.dataStart, element.dataStart + element.size).replace(/\0+$/, '');
      return docType === 'webm' || docType === 'matroska';
    }
    position = element.dataStart + element.size;
  }
  return false;
}

/** A block's time: its cluster's plus the signed 16-bit offset after its track number. */
function blockTime(view: Buffer, start: number, end: number, clusterTime: number): number | undefined {
  const track = readVint(view, start);
  if (!track || track.next + 2 > Math.min(end, view.length)) return undefined;
  return clusterTime + view.readInt16BE(track.next);
}

/** An element's ID (its marker bits kept, as the specification writes IDs) and size (undefined: unknown). */
function readElementHead(view: Buffer, position: number): { id: number; size: number | undefined; dataStart: number } | undefined {
  const first = view[position];
  if (first === undefined) return undefined;
  const idLength = vintLength(first);
  if (idLength === undefined || idLength > 4 || position + idLength > view.length) return undefined;
  let id = 0;
  for (let index = 0; index < idLength; index += 1) id = id * 256 + (view[position + index] ?? 0);
  const size = readVint(view, position + idLength);
  if (!size) return undefined;
  return { id, size: size.unknown ? undefined : size.value, dataStart: size.next };
}

/** A variable-length integer, its length marker removed; all value bits set means "unknown". */
function readVint(view: Buffer, position: number): { value: number; unknown: boolean; next: number } | undefined {
  const first = view[position];
  if (first === undefined) return undefined;
  const length = vintLength(first);
  if (length === undefined || position + length > view.length) return undefined;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let index = 1; index < length; index += 1) {
    const byte = view[position + index] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, unknown: allOnes, next: position + length };
}

function vintLength(first: number): number | undefined {
  for (let length = 1; length <= 8; length += 1) if (first & (0x100 >> length)) return length;
  return undefined;
}

function readUnsigned(view: Buffer, start: number, end: number): number {
  let value = 0;
  for (let position = start; position < Math.min(end, view.length); position += 1) value = value * 256 + (view[position] ?? 0);
  return value;
}

function readFloat(view: Buffer, start: number, size: number): number | undefined {
  if (size === 4 && start + 4 <= view.length) return view.readFloatBE(start);
  if (size === 8 && start + 8 <= view.length) return view.readDoubleBE(start);
  return undefined;
}
