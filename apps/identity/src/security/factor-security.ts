/**
 * What a factor module adds to the portal's security page (enrolment, overview entries, removal).
 * Helper S1b implements it; this is the shape's name so factors/module.ts can declare the member.
 */
// biome-ignore lint/suspicious/noEmptyInterface: S1b's branch replaces this file.
export interface FactorSecurity {}
