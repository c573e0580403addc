export function GuardedSecurityPage() {
  return <p>stub</p>;
}
