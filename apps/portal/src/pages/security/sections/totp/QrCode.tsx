import { create } from 'qrcode';
import { useMemo } from 'react';

/** The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

/**
 * A QR code of `value` as an SVG image with a text alternative: the symbol is encoded by `qrcode`
 * (the design's QR library; soldair/node-qrcode), drawn here as one path of dark modules, so no
 * markup string is injected and no canvas or data URL is needed (docs/decisions/027-security-page.md).
 * Black on white whatever the colour scheme (forced colours included), or no app could scan it.
 */
export function QrCode({ value, label, size = 208 }: { value: string; label: string; size?: number }) {
  const { path, extent } = useMemo(() => {
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    const n = modules.size;
    let d = '';
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        if (modules.get(row, col)) d += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
      }
    }
    return { path: d, extent: n + 2 * QUIET };
  }, [value]);
  return (
    <svg
      className="security__qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${extent} ${extent}`}
      shapeRendering="crispEdges"
    >
      <rect width={extent} height={extent} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
