import type { LedgerRow } from "../ledger.js";

export interface ExportFormat {
  name: string;
  extension: string;
  write(rows: AsyncIterable<LedgerRow>, out: NodeJS.WritableStream): Promise<void>;
}

export class UnknownFormatError extends Error {}

const formats = new Map<string, ExportFormat>();

export function registerFormat(format: ExportFormat): void {
  formats.set(format.name, format);
}

export function getFormat(name: string): ExportFormat {
  const format = formats.get(name);
  if (!format) {
    throw new UnknownFormatError(`unknown format ${name}; known: ${[...formats.keys()].join(", ")}`);
  }
  return format;
}
