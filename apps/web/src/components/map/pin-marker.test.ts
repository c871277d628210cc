import { afterEach, describe, expect, it } from 'vitest';
import L from 'leaflet';
import { pinMarker } from './cluster-map';

describe('the searched place’s pin', () => {
  let map: L.Map | undefined;
  afterEach(() => {
    map?.remove();
    document.body.innerHTML = '';
  });

  it('shows a geocoder’s answer as text, never as HTML', () => {
    const element = document.createElement('div');
    document.body.append(element);
    map = L.map(element, { center: [31.5, 120.3], zoom: 12 });
    const label = '<img src="x" onerror="window.hacked = 1">无锡 <b>Wuxi</b>';
    pinMarker({ lng: 120.3, lat: 31.5, label }).addTo(map);
    const tooltip = element.querySelector('.leaflet-tooltip');
    expect(tooltip?.textContent).toBe(label);
    expect(tooltip?.querySelector('img, b')).toBeNull();
  });
});
