/**
 * Counts as the add-in's messages write them: a whole number with its thousands grouped by commas
 * (`2,110`, `10,045`), as the sidebar shows them, so a run's message and the quota guard's read
 * alike.
 */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
