/**
 * The Leaflet part of the map island, in its own chunk: imported only in the browser
 * and only once the map is visible (Leaflet touches `window` at import time).
 */
import L from 'leaflet';
import '../vendor/leaflet.css';
import { DEFAULT_ZOOM, formatCoordinates } from '../lib/map-center.ts';

export interface MapPlace {
  lat: number;
  lng: number;
  /** Metres. */
  radius: number;
  city: string;
  country: string;
  tooltip: string;
  label: string;
}

export interface MapHandle {
  update(place: MapPlace): void;
  destroy(): void;
}

/** Spec section 9: tiles go up to zoom 19. */
const MAX_ZOOM = 19;

function popupContent(place: MapPlace): HTMLElement {
  const box = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = `${place.city}, ${place.country}`;
  const coords = document.createElement('div');
  coords.className = 'map-popup-coords';
  coords.textContent = formatCoordinates(place.lat, place.lng);
  box.append(title, coords);
  return box;
}

/**
 * Frames the accuracy circle: the closest zoom (at most the spec's 13) that shows all of it,
 * since a calibrated radius of tens of kilometres overflows the box at zoom 13 and a circle
 * whose edge is out of view says nothing.
 */
function frame(map: L.Map, circle: L.Circle): void {
  map.fitBounds(circle.getBounds(), { maxZoom: DEFAULT_ZOOM, animate: false });
}

/** Creates the map in `element`: pulsing marker, accuracy circle framed, popup, tiles, a scale bar to read the circle by. */
export function createMap(element: HTMLElement, place: MapPlace, tiles: { url: string; attribution: string }): MapHandle {
  const map = L.map(element, {
    zoomControl: true, scrollWheelZoom: true, doubleClickZoom: true, dragging: true,
  }).setView([place.lat, place.lng], DEFAULT_ZOOM);
  L.tileLayer(tiles.url, { maxZoom: MAX_ZOOM, attribution: tiles.attribution }).addTo(map);
  L.control.scale().addTo(map);
  const icon = L.divIcon({ className: 'pulse-marker', html: '<span class="pulse-ring"></span><span class="pulse-dot"></span>', iconSize: [22, 22], iconAnchor: [11, 11] });
  const marker = L.marker([place.lat, place.lng], { icon, title: place.label, alt: place.label }).addTo(map);
  const circle = L.circle([place.lat, place.lng], { radius: place.radius, color: '#b91c1c', fillColor: '#ef4444', fillOpacity: 0.15, weight: 2 }).addTo(map);

  const apply = (p: MapPlace) => {
    marker.setLatLng([p.lat, p.lng]);
    marker.getElement()?.setAttribute('title', p.label);
    marker.bindPopup(popupContent(p));
    circle.setLatLng([p.lat, p.lng]).setRadius(p.radius);
    circle.bindTooltip(p.tooltip, { sticky: true });
  };
  apply(place);
  frame(map, circle);
  return {
    update(p) {
      apply(p);
      frame(map, circle);
    },
    destroy: () => map.remove(),
  };
}
