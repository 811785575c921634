/**
 * Numbers as the add-in's messages write them: counts with their thousands grouped by commas
 * (`2,110`, `10,045`), as the sidebar shows them, so a run's message and the quota guard's read
 * alike; a count with its noun in the right number (`1 run`, `2,110 partners`); a period as
 * people say it (`every hour`, `every 6 hours`).
 */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `n` grouped, then `one` when n is 1, else `many` (the noun with an s unless given). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${grouped(n)} ${n === 1 ? one : many}`;

/** A repeating period: `every hour` for 1, else `every 6 hours` (grouped). */
export const every = (n: number, unit: string, units = `${unit}s`): string =>
  n === 1 ? `every ${unit}` : `every ${plural(n, unit, units)}`;
