"""What the page is to look at and to trust: light, stable, accessible, readable at every size, and safe with hostile names."""
import json
import os
import time
import urllib.request

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from servers import Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate, history, HOSTILE, ROW_ELEMENTS, AXE


class LooksTests(BrowserTests):
    """The page at the root of a server with no token, as it looks and behaves."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def test_a_hostile_name_is_text_and_runs_nothing(self):
        self.page.open("?q=onerror")
        self.assertEqual(self.page.names(), [HOSTILE])
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#list img"), [])
        with self.assertRaises(NoAlertPresentException):
            self.driver.switch_to.alert.text

    def test_a_bidirectional_control_in_a_name_is_shown_not_obeyed(self):
        self.page.open("?q=invoice")
        self.assertEqual(self.page.names(), ["invoice\\u{202E}fdp.exe"])
        self.page.open_menu("DISGUISE")
        title = self.driver.find_element(By.ID, "menu").text
        self.assertIn("invoice\\u{202E}fdp.exe", title, "the menu names it the same way")

    def test_headers_forbid_inline_scripts_sniffing_and_frames(self):
        with urllib.request.urlopen(self.shared.url + "/") as response:
            policy = response.headers["Content-Security-Policy"]
            self.assertIn("default-src 'self'", policy)
            self.assertNotIn("unsafe-inline", policy)
            self.assertIn("frame-ancestors 'none'", policy)
            self.assertEqual(response.headers["X-Content-Type-Options"], "nosniff")

    def test_a_hundred_rows_stay_light(self):
        # The work a page of rows costs, counted (elements made), not timed: a row that grows heavier makes every
        # page and every scroll slower, whatever the machine.
        elements = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import(new URL('rows.js', document.baseURI)).then(({ row }) => {
              const records = Array.from({ length: 100 }, (_, i) => ({ id: 'R' + i, name: 'file ' + i + '.pdf', type: 'pdf',
                size: i * 1000, createdAt: '2021-01-17T12:34:56.789Z', folder: '/reports' }));
              const view = { folder: '', selected: false, folderURL: (f) => './?folder=' + f };
              const rows = records.map((r) => row(r, view, { onMenu() {}, onFolder() {}, onSelect() {} }));
              done(rows.reduce((sum, element) => sum + 1 + element.querySelectorAll('*').length, 0));
            });""")
        self.assertLessEqual(elements, 100 * ROW_ELEMENTS, f"100 rows made {elements} elements")

    def test_no_accessibility_violations_at_desktop_and_phone_with_a_selection(self):
        for width, height in ((1280, 900), (390, 844)):
            self.driver.set_window_size(width, height)
            self.page.open()
            self.page.click(lambda: self.page.row("WEB0240").find_element(By.CSS_SELECTOR, ".select"))
            self.page.wait(lambda: self.driver.find_element(By.ID, "selection").is_displayed())
            violations = axe_violations(self.driver)
            self.assertEqual(violations, [], f"{width} px: " + json.dumps([(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in violations]))
        self.driver.set_window_size(1280, 900)

    def test_screenshots_at_desktop_and_phone_light_and_dark(self):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for scheme, background in (("light", "rgb(255, 255, 255)"), ("dark", "rgb(18, 19, 22)")):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for name, width, height in (("desktop", 1366, 768), ("phone", 390, 844), ("phone-320", 320, 568)):
                emulate(self.driver, width, height)
                self.page.open()
                self.page.wait(lambda: self.driver.find_element(By.ID, "storage-text").text, message="the storage line")
                # The same address again brings back where an earlier test scrolled to: the pictures show the top.
                self.driver.execute_script("scrollTo(0, 0)")
                self.assertEqual(self.driver.execute_script("return getComputedStyle(document.body).backgroundColor"), background,
                                 f"{scheme} follows the system")
                overflow = self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth")
                self.assertFalse(overflow, f"no sideways scrolling at {width} px")
                self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{scheme}.png"))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        emulate(self.driver, None)

    def test_control_borders_reach_3_to_1_against_the_page_light_and_dark(self):
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            self.page.open()
            weak = self.driver.execute_script("""
                const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
                const luminance = (colour) => channels(colour).map((c) => c / 255)
                  .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
                  .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
                const page = luminance(getComputedStyle(document.body).backgroundColor);
                return [...document.querySelectorAll('input:not([type=checkbox]), select, button, #folders a')]
                  .filter((c) => c.getClientRects().length)
                  .map((c) => [c.id || c.textContent.trim(), luminance(getComputedStyle(c).borderTopColor)])
                  .map(([name, border]) => [name, (Math.max(border, page) + 0.05) / (Math.min(border, page) + 0.05)])
                  .filter(([, ratio]) => ratio < 3);""")
            self.assertEqual(weak, [], f"{scheme}: borders under 3:1")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_joiners_stay_and_a_long_name_is_cut_to_two_lines_with_its_whole_in_reach(self):
        joined = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 family \U0001F468\u200d\U0001F469\u200d\U0001F467.txt"
        long = "x" * 240 + ".pdf"
        self.shared.import_records([{"id": "JOINED01", "name": joined, "size": 1, "createdAt": "2022-01-01T00:00:00Z"},
                                    {"id": "LONGNAME", "name": long, "size": 1, "createdAt": "2022-01-02T00:00:00Z"}])
        try:
            self.page.open()
            self.assertEqual(self.page.text_of("JOINED01", ".name"), joined, "joiners between letters and emoji are kept")
            name = self.page.row("LONGNAME").find_element(By.CSS_SELECTOR, ".name")
            line = float(name.value_of_css_property("line-height").replace("px", ""))
            self.assertLessEqual(name.size["height"], 2 * line + 1, "two lines at most")
            self.assertEqual(name.get_attribute("title"), long, "the whole name is its title")
            self.page.open_menu("LONGNAME")
            title = self.driver.find_element(By.ID, "menu-title")
            self.assertLessEqual(title.size["height"], 3 * float(title.value_of_css_property("line-height").replace("px", "")) + 1)
            self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "#menu-actions button").is_displayed(), "the actions stay in sight")
            self.page.keys(Keys.ESCAPE)
        finally:
            for id in ("JOINED01", "LONGNAME"):
                self.shared.request("DELETE", f"/share/{id}?purge=true")

    def test_nothing_moves_as_the_page_loads(self):
        for width, height in ((1366, 768), (390, 844)):
            emulate(self.driver, width, height, touch=width < 600)
            self.page.open()
            self.page.wait(lambda: self.driver.find_element(By.ID, "storage-text").text, message="the storage line")
            self.assertLessEqual(self.page.layout_shift(), 0.02, f"cumulative layout shift at {width} px")
        emulate(self.driver, None)

    def test_a_desktop_screen_shows_the_list_first(self):
        emulate(self.driver, 1366, 768)
        self.page.open()
        first = self.page.rows()[0].rect["y"]
        whole = self.driver.execute_script(
            "return [...document.querySelectorAll('#list li.row')].filter((r) => r.getBoundingClientRect().bottom <= innerHeight).length")
        emulate(self.driver, None)
        self.assertLess(first, 340, "the filters take less of the first screen than the list")
        self.assertGreaterEqual(whole, 7, "rows on the first screen")

    def test_the_accessibility_checker_is_axe_core_4(self):
        with open(AXE) as script:
            self.driver.execute_script(script.read())
        self.assertTrue(self.driver.execute_script("return axe.version").startswith("4."))


class WeightTests(BrowserTests):
    """Five years of history, a share a day: the first load stays light."""

    @classmethod
    def setUpClass(cls):
        records = [{"id": f"DAY{index:05d}", "name": f"day {index}.pdf", "size": 1000 + index,
                    "createdAt": time.strftime("%Y-%m-%dT12:00:00Z", time.gmtime(1483228800 + index * 86400))} for index in range(1826)]
        cls.open_browser(Shared(), records)

    def test_the_first_load_is_under_60_kb_and_counts_read_with_separators(self):
        self.page.open()
        self.page.wait(lambda: "1,826 shares" in self.driver.find_element(By.ID, "storage-text").text,
                       message="the storage line, thousands separated")
        transferred = self.driver.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".reduce((sum, entry) => sum + entry.transferSize, 0)")
        self.assertLessEqual(transferred, 60_000, f"first load transferred {transferred} bytes")
