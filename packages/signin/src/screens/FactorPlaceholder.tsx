import { CancelLink } from '../shared/CancelLink.tsx';

/**
 * Where a second-factor screen will plug in. Until it does it says nothing to the customer
 * (issue 4): no heading, no message, only the journey's way out.
 */
export function FactorPlaceholder() {
  return (
    <section className="gh-signin__screen" aria-busy="true">
      <CancelLink />
    </section>
  );
}
