import QRCode from 'qrcode';

/** A QR code as an SVG `data:` URL: an image the page's CSP allows, drawn here, never fetched from elsewhere. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
