/**
 * Reading and editing a built index's file (src/server/built-index/container.ts) as the
 * tests that break one on purpose need: its JSON header, where its parts start, and the same
 * file with its header edited.
 */

/** A container's header as its file holds it (after the 8-byte magic and a u32 length). */
export interface ContainerHeader { format: number; byteOrder?: string; version: string; parts: Record<string, [number, number, number?]> }

export const headerOf = (file: Buffer) => JSON.parse(file.toString('utf8', 12, 12 + file.readUInt32LE(8))) as ContainerHeader;

/** Where the parts begin: after the header, on an 8-byte boundary. */
export const startOf = (file: Buffer) => Math.ceil((12 + file.readUInt32LE(8)) / 8) * 8;

/** The same file with its header edited (the parts moved along with it). */
export function withHeader(file: Buffer, edit: (header: ContainerHeader) => void): Buffer {
  const header = headerOf(file);
  edit(header);
  const json = Buffer.from(JSON.stringify(header));
  const start = Math.ceil((12 + json.length) / 8) * 8;
  const out = Buffer.alloc(start + file.length - startOf(file));
  file.copy(out, 0, 0, 8);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  file.copy(out, start, startOf(file));
  return out;
}
