// Runs synchronously in <head>: applies the user's last theme and language before first paint,
// so a dark-theme user never sees a white flash. Kept tiny and dependency-free.
(function () {
  var root = document.documentElement;
  var theme = 'light';
  try {
    if (window.localStorage.getItem('sluice.theme') === 'dark') theme = 'dark';
  } catch (e) {
    /* storage may be blocked; fall back to light */
  }
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  root.style.backgroundColor = theme === 'dark' ? '#141414' : '#ffffff';
  var lang = /(?:^|;\s*)lang=([^;]+)/.exec(document.cookie);
  if (lang) root.lang = decodeURIComponent(lang[1]).indexOf('zh') === 0 ? 'zh-CN' : 'en-US';
})();
