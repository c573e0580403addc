/** Leaves the portal's single page for another address (a full navigation, not a route). */
export function leaveTo(address: string): void {
  window.location.assign(address);
}
