/**
 * The Leaflet part of the map island, in its own chunk: imported only in the browser
 * and only once the map is visible (Leaflet touches `window` at import time). The view
 * is fitted to the accuracy circle on creation and after every change of place.
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

/** Tiles go up to zoom 19. */
const MAX_ZOOM = 19;
/** Room (px) between the accuracy circle and the map's edges. */
const FIT_PADDING: [number, number] = [24, 24];

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
  /**
   * Frames the accuracy circle with some room around it: a 10 km circle is not cut off and
   * a 100 m GPS circle is not hidden under the marker, whatever the zoom was.
   */
  const frame = (animate: boolean) => map.fitBounds(circle.getBounds(), { padding: FIT_PADDING, maxZoom: MAX_ZOOM - 1, animate });
  apply(place);
  frame(false);
  // The box may get its size after the map was created (a tab opened): frame again then.
  const resized = new ResizeObserver(() => { map.invalidateSize(); frame(false); });
  resized.observe(element);
  return {
    update(p) {
      apply(p);
      frame(true);
    },
    destroy: () => { resized.disconnect(); map.remove(); },
  };
}
