/** The three component sizes shared by every sized component (default medium). */
export const sizes = ['small', 'medium', 'large'] as const;
export type Size = (typeof sizes)[number];
