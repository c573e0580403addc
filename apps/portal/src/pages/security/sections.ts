import type { ComponentType } from 'react';

/**
 * What a factor's folder of the security page exports (`sections/<key>/section.tsx`): where its
 * section stands among the factor sections (lower first) and the section itself, which reads the
 * overview and runs its calls through the page's context (context.tsx). A new factor adds its
 * folder; the page finds it (docs/decisions/039b-portal-and-device-through-the-registry.md).
 */
export type FactorSection = { order: number; Section: ComponentType };

/** Every factor section, found in `sections/*` (in the security page's chunk), in their order. */
export const factorSections = Object.entries(
  import.meta.glob<FactorSection>('./sections/*/section.tsx', { eager: true }),
)
  .map(([path, entry]) => ({ key: path.split('/')[2] ?? path, order: entry.order, Section: entry.Section }))
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
