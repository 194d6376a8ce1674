// How numbers are written in messages and on screen: counts with thousands separators, sizes in bytes or MiB.

/**
 * 4812 → "4,812", the same on every machine whatever its locale. Whole numbers are grouped by hand: the first
 * toLocaleString in a process loads locale data (~20 ms), and the tool descriptions are built at every start.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ",");
  return value < 0 ? `-${digits}` : digits;
}

/** 33554432 → "32 MiB", 1572864 → "1.5 MiB", 900 → "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${bytes} bytes`;
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
