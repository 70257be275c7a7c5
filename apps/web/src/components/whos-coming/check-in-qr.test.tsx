import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CheckInQr } from './check-in-qr';

describe('CheckInQr', () => {
  it('draws the code as an SVG QR symbol of at least 160 px with the reference beside it', async () => {
    render(<CheckInQr code="KR-7K3Q9-ABCDEFGHJKMNPQRS" reference="KR-7K3Q9" />);
    const svg = await screen.findByRole('img', { name: 'Check-in QR code for booking KR-7K3Q9' });
    expect(Number(svg.getAttribute('width'))).toBeGreaterThanOrEqual(160);
    // Version 2 at level M (25 modules) for a 25-character alphanumeric code, plus the quiet zone.
    expect(svg.getAttribute('viewBox')).toBe('0 0 33 33');
    expect(svg.querySelector('path')!.getAttribute('d')!.length).toBeGreaterThan(1000);
    expect(screen.getByText('KR-7K3Q9')).toBeInTheDocument();
  });
});
