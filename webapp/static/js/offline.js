// The offline app on every page: register the service worker (static/sw.js, served at /sw.js) and say
// plainly when the device is offline and what still works. <html data-offline="ready"> once this page
// is served by an installed worker (everything it needs offline is then stored, the rulings this page
// got before the worker took over included).
import {unsaved} from "./api.js";

const banner = document.getElementById("net-status");

function showNetwork() {
  if (!banner) return;
  banner.hidden = navigator.onLine;
  banner.textContent = navigator.onLine ? "" :
    "You are offline. Search, rule pages and quick references use the copy saved on this device; " +
    "rulings need the server (rulings already seen here are kept).";
}

window.addEventListener("online", showNetwork);
window.addEventListener("offline", showNetwork);
showNetwork();

async function install() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    await navigator.serviceWorker.register("/sw.js", {scope: "/"});
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((done) => navigator.serviceWorker.addEventListener("controllerchange", done, {once: true}));
    }
    await handOver(navigator.serviceWorker.controller);
    document.documentElement.dataset.offline = "ready";
  } catch (err) {
    document.documentElement.dataset.offline = "unavailable";
    console.warn("offline use is not available:", err);
  }
}

function handOver(worker) {
  // the rulings answered before the worker controlled this page: it keeps them like its own
  const rulings = unsaved.splice(0);
  if (!rulings.length || !worker) return Promise.resolve();
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done();
    worker.postMessage({rulings}, [channel.port2]);
    setTimeout(done, 5000);
  });
}

install();
