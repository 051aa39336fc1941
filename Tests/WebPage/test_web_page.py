"""The web page of the history in a real headless Chromium, against the real `shared`: at the root, with a token,
and under a sub-path behind nginx. Each test says what a person would notice if it broke.

Run by scripts/test-web (which installs Chromium, its driver, Selenium and axe when missing)."""
import json
import re
import os
import shutil
import tempfile
import time
import unittest
import urllib.request

import axe_playwright_python
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from servers import ROOT, Nginx, Shared

SCREENSHOTS = os.path.join(ROOT, ".build", "web-screenshots")
# axe-core 4, as axe-playwright-python ships it (only the script is used).
AXE = os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")
HOSTILE = "<img src=x onerror=alert(1)>.png"
# Read as "invoiceexe.pdf" if its right-to-left override were obeyed.
DISGUISED = "invoice\u202efdp.exe"
EXTENSIONS = ["pdf", "docx", "jpg", "xlsx", "mp3", "zip", "txt", "pptx", "mp4", "bin"]
# Every third share is a report; Chinese and Japanese names among the rest, as people's histories hold them.
# The elements of one row: checkbox and its label, the picture's box with its icon (an SVG of four shapes), the name,
# the meta line (type, size, time, id and its label, folder) and the menu button.
ROW_ELEMENTS = 19
WORDS = ["report", "photo", "notes", "report", "写真 photo", "会议记录"]


def history():
    """250 shares over 2021, one a day at noon UTC, newest first at the root; names say what they are."""
    records = []
    for index in range(250):
        day = time.strftime("%Y-%m-%d", time.gmtime(1609459200 + index * 86400))
        extension = EXTENSIONS[index % len(EXTENSIONS)]
        word = WORDS[index % len(WORDS)]
        records.append({"id": f"WEB{index:04d}", "name": f"{word} {index}.{extension}", "size": 1234 * (index + 1),
                        "createdAt": f"{day}T12:00:00Z", "folder": "/" if index % 5 else "/projects/alpha"})
    records[-1]["folder"] = "/"
    records.append({"id": "HOSTILE1", "name": HOSTILE, "size": 10, "createdAt": "2021-03-01T08:00:00Z"})
    records.append({"id": "DISGUISE", "name": DISGUISED, "size": 10, "createdAt": "2021-03-02T08:00:00Z"})
    return records


def axe_violations(driver):
    """What axe-core 4 finds on the page as it is now, any impact."""
    with open(AXE) as script:
        driver.execute_script(script.read())
    return driver.execute_async_script("axe.run(document).then((r) => arguments[arguments.length - 1](r.violations))")


def browser(width=1280, height=900):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


class Page:
    """The page in a browser, with waits for what a person would wait for."""

    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def open(self, query=""):
        self.driver.get(f"{self.url}/{query}")
        self.wait_loaded()

    def wait(self, condition, seconds=10, message=""):
        """Waits until `condition` holds. The page replaces rows as it re-renders: an element it looked up that
        was replaced meanwhile (stale) or is not there yet only means "not yet", so `condition` should look up
        what it reads each time it runs."""
        return WebDriverWait(self.driver, seconds, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)) \
            .until(lambda _: condition(), message)

    def click(self, find, message=""):
        """Clicks what `find` returns, looking it up again if the page replaced it before the click landed."""
        self.wait(lambda: find().click() or True, message=message)

    def wait_loaded(self):
        self.wait(lambda: self.driver.execute_script(
            "const l = document.getElementById('list'); const s = document.getElementById('status').textContent;"
            "return !l.hasAttribute('aria-busy') && !s.startsWith('Loading');"), message="the list did not load")

    def rows(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#list li.row")

    def names(self):
        return self.driver.execute_script("return [...document.querySelectorAll('#list .name')].map(n => n.textContent)")

    def ids(self):
        return self.driver.execute_script("return [...document.querySelectorAll('#list li.row')].map(r => r.dataset.id)")

    def row(self, id):
        return self.driver.find_element(By.CSS_SELECTOR, f'#list li[data-id="{id}"]')

    def active(self):
        return self.driver.switch_to.active_element

    def keys(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def open_menu(self, id):
        self.click(lambda: self.row(id).find_element(By.CSS_SELECTOR, ".menu-button"), f"{id}'s menu button")
        self.wait(lambda: self.driver.find_element(By.ID, "menu").get_attribute("open") is not None)

    def choose(self, action):
        for button in self.driver.find_elements(By.CSS_SELECTOR, "#menu-actions button"):
            if button.text == action:
                button.click()
                return
        raise AssertionError(f"no {action} in the menu")

    def answer(self, text):
        field = lambda: self.driver.find_element(By.ID, "ask-input")
        self.wait(lambda: field().is_displayed(), message="the dialog's field")
        field().send_keys(Keys.CONTROL, "a")
        field().send_keys(text, Keys.ENTER)

    def text_of(self, id, selector):
        """The text of `selector` in the row of `id`, as it is now."""
        return self.row(id).find_element(By.CSS_SELECTOR, selector).text

    def layout_shift(self):
        """How far the page has moved under the reader so far: the shifts reported once two frames are drawn."""
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(window.shifted))));""")

    def inside_screen(self, element_id):
        """Whether the element is wholly within the viewport's width."""
        return self.driver.execute_script(
            "const box = document.getElementById(arguments[0]).getBoundingClientRect(); return box.left >= 0 && box.right <= innerWidth;",
            element_id)

    def set_date(self, field, value):
        self.driver.execute_script(
            "const input = document.getElementById(arguments[0]); input.value = arguments[1];"
            "input.dispatchEvent(new Event('change'));", field, value)


class BrowserTests(unittest.TestCase):
    """A browser on the page of a running `shared` holding `records`, stopped with the class."""

    proxy = None
    scratch = None

    @classmethod
    def open_browser(cls, shared, records, url=None):
        cls.shared = shared
        if records:
            shared.import_records(records)
        cls.driver = browser()
        # Every layout shift of every page, as the browser reports it (cumulative layout shift, input aside).
        cls.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.shifted = 0;
            new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifted += entry.value; })
              .observe({ type: "layout-shift", buffered: true });"""})
        cls.page = Page(cls.driver, url or shared.url)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        if cls.proxy:
            cls.proxy.stop()
        cls.shared.stop()
        if cls.scratch:
            shutil.rmtree(cls.scratch, ignore_errors=True)


class RootPageTests(BrowserTests):
    """The page at the root of a server with no token."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def test_the_list_shows_the_newest_hundred_with_icon_size_time_and_id(self):
        rows = self.page.rows()
        self.assertEqual(len(rows), 100, "a page of 100, never everything at once")
        self.assertEqual(rows[0].get_attribute("data-id"), "WEB0249", "newest first")
        first = rows[0]
        self.assertEqual(len(first.find_elements(By.CSS_SELECTOR, "svg.icon")), 1, "every row has its type icon")
        meta = first.find_element(By.CSS_SELECTOR, ".meta").text
        self.assertIn("308.5 kB", meta, "sizes in 1000-based units")
        self.assertIn("Share id: WEB0249", meta)
        zone = self.driver.find_element(By.ID, "zone").text
        self.assertTrue(zone, "the page says which zone its dates are in")

    def test_a_pictures_row_shows_its_thumbnail_in_the_icons_box(self):
        with open(os.path.join(ROOT, "Tests", "Fixtures", "pictures", "photo.jpg"), "rb") as picture:
            status, _, body = self.shared.request("PUT", "/share/WEB0242/thumbnail", picture.read(), "image/jpeg")
        self.assertEqual(status, 200, body)
        self.page.open()
        image = lambda: self.page.row("WEB0242").find_element(By.CSS_SELECTOR, ".picture img")
        self.page.wait(lambda: self.driver.execute_script("return arguments[0].complete && arguments[0].naturalHeight", image()) == 192,
                       message="the thumbnail (144 × 192, the photo upright) shows in its row")
        box = self.page.row("WEB0242").find_element(By.CSS_SELECTOR, ".picture").size
        self.assertEqual((box["width"], box["height"]), (40, 40), "the icon's box: nothing moves when the picture arrives")
        self.assertEqual(len(self.page.row("WEB0241").find_elements(By.CSS_SELECTOR, ".picture svg.icon")), 1,
                         "a share without a thumbnail keeps its icon")

    def test_scrolling_loads_the_next_pages_by_their_link(self):
        seen = set()

        def scrolled_to_the_oldest():
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            ids = self.page.ids()
            self.assertEqual(len(ids), len(set(ids)), "each share once")
            seen.update(ids)
            return ids[-1] == "WEB0000"
        self.page.wait(scrolled_to_the_oldest, message="the oldest share after scrolling")
        self.assertGreater(len(seen), 200, "pages were loaded one after the other")

    def test_search_finds_every_word_in_any_order_marks_them_and_is_debounced(self):
        self.record_requests()
        field = self.driver.find_element(By.ID, "q")
        for letter in "24 report":
            field.send_keys(letter)
            time.sleep(0.05)
        self.page.wait(lambda: "q=24+report" in self.driver.current_url, message="the search after typing stops")
        self.page.wait_loaded()
        self.assertLessEqual(len(self.listings()), 3, f"typing nine letters sent {self.listings()}")
        names = self.page.names()
        self.assertTrue(names and all("report" in name and "24" in name for name in names), names)
        self.assertIn("report 24.mp3", names, "the words in any order")
        marks = self.driver.execute_script(
            "return [...document.querySelectorAll('#list li.row')][0].querySelectorAll('.name mark').length")
        self.assertEqual(marks, 2, "each word is marked in the name")
        field.clear()
        field.send_keys('"24 report"')
        self.page.wait(lambda: "q=%2224+report%22" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names(), [], "a phrase in quotes is literal")
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "q").get_attribute("value"), '"24 report"', "the search is in the URL")

    def apply_dates(self, start, end=""):
        self.page.set_date("from", start)
        self.page.set_date("to", end)
        self.driver.find_element(By.ID, "apply-dates").click()

    def test_a_day_and_a_range_are_one_control_in_the_browsers_zone(self):
        self.apply_dates("2021-03-01")
        self.page.wait(lambda: "date=2021-03-01" in self.driver.current_url, message="a first day alone is that day")
        self.page.wait_loaded()
        times = [row.find_element(By.CSS_SELECTOR, ".time").text for row in self.page.rows()]
        self.assertTrue(times and all(time_.startswith("2021-03-01") for time_ in times), times)
        self.apply_dates("2021-02-01", "2021-02-03")
        self.page.wait(lambda: "to=2021-02-03" in self.driver.current_url and "from=2021-02-01" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 3)
        self.assertEqual(self.driver.find_element(By.ID, "from").get_attribute("value"), "2021-02-01", "nothing cleared the other end")

    def test_a_range_applies_once_both_ends_are_chosen_and_a_month_at_once(self):
        self.record_requests()
        before = self.driver.execute_script("return history.length")
        field = self.driver.find_element(By.ID, "from")
        # Focused from the start, as Tab leaves it: on its first part, the month.
        self.driver.execute_script("arguments[0].focus()", field)
        for key in "03012021":
            field.send_keys(key)
        self.page.set_date("to", "2021-03-05")
        self.assertEqual(self.listings(), [], "nothing is applied before the range is chosen")
        self.driver.find_element(By.ID, "apply-dates").click()
        self.page.wait(lambda: "from=2021-03-01&to=2021-03-05" in self.driver.current_url, message="the range is applied")
        self.page.wait_loaded()
        self.assertEqual(len(self.listings()), 1, self.listings())
        self.assertEqual(len(self.page.rows()), 7, "five days of one share each, and two shares of 1 and 2 March")
        self.assertEqual(self.driver.execute_script("return history.length"), before + 1, "one history entry for one change")
        self.page.set_date("month", "2021-02")
        self.page.wait(lambda: "from=2021-02-01&to=2021-02-28" in self.driver.current_url, message="a month is picked at once")
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 28)

    def test_a_backwards_range_says_what_is_wrong(self):
        self.apply_dates("2021-03-05", "2021-03-01")
        error = self.driver.find_element(By.ID, "date-error")
        self.page.wait(lambda: error.is_displayed(), message="the backwards range is named")
        self.assertIn("after", error.text)
        self.assertNotIn("to=", self.driver.current_url, "and not applied")

    def test_presets_filter_by_today_seven_days_month_and_year(self):
        status, _, body = self.shared.request("POST", "/share", json.dumps({"name": "today.pdf", "size": 5}))
        self.assertEqual(status, 201, body)
        today_id = json.loads(body)["id"]
        self.addCleanup(self.shared.request, "DELETE", f"/share/{today_id}?purge=true")
        for label, when in (("Today", "today"), ("Last 7 days", "7d"), ("This month", "month"), ("This year", "year")):
            self.page.open()
            chip = self.driver.find_element(By.XPATH, f'//div[@id="presets"]/button[text()="{label}"]')
            chip.click()
            self.page.wait(lambda: f"when={when}" in self.driver.current_url, message=label)
            self.page.wait_loaded()
            self.assertEqual(self.page.ids(), [today_id], f"{label}: only today's share")
            self.assertEqual(self.driver.find_element(By.XPATH, f'//div[@id="presets"]/button[text()="{label}"]').get_attribute("aria-pressed"), "true")

    def record_requests(self):
        self.driver.execute_script(
            "window.sent = []; const send = window.fetch;"
            "window.fetch = (url, options) => { window.sent.push(String(url)); return send(url, options); };")

    def listings(self):
        return [url for url in self.driver.execute_script("return window.sent") if "share?" in url and "stats" not in url]

    def test_type_filter_and_sort_toggle(self):
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".pdf") for name in self.page.names()))
        self.driver.find_element(By.ID, "order").click()
        self.page.wait(lambda: "order=asc" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names()[0], "report 0.pdf", "oldest first")
        self.driver.back()
        self.page.wait(lambda: "order=asc" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names()[0], "report 240.pdf", "back gives the previous view")

    def test_folders_have_breadcrumbs(self):
        self.page.open("?folder=%2Fprojects%2Falpha")
        crumbs = self.driver.find_element(By.ID, "crumbs").text
        self.assertIn("projects", crumbs)
        self.assertIn("alpha", crumbs)
        self.assertEqual(len(self.page.rows()), 50)
        self.driver.find_element(By.LINK_TEXT, "All folders").click()
        self.page.wait(lambda: "folder" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 100)

    def test_rename_with_the_keyboard_alone(self):
        self.driver.find_element(By.ID, "clear").click()
        self.page.wait_loaded()
        target = self.page.row("WEB0249").find_element(By.CSS_SELECTOR, ".menu-button")
        for _ in range(50):
            if self.page.active() == target:
                break
            self.page.keys(Keys.TAB)
        self.assertEqual(self.page.active(), target, "Tab reaches the row's menu")
        self.page.keys(Keys.ENTER)
        self.assertEqual(self.page.active().text, "Rename", "focus moves into the menu")
        self.page.keys(Keys.ESCAPE)
        self.page.wait(lambda: self.driver.find_element(By.ID, "menu").get_attribute("open") is None)
        self.assertEqual(self.page.active(), target, "Escape closes the menu and focus comes back")
        self.page.keys(Keys.ENTER)
        self.page.keys(Keys.ENTER)
        self.assertEqual(self.page.active().get_attribute("id"), "ask-input", "focus moves into the rename dialog")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        self.page.keys("renamed by keyboard.bin", Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0249", ".name") == "renamed by keyboard.bin")
        self.assertEqual(self.page.active().get_attribute("aria-label"), "Actions for renamed by keyboard.bin")

    def test_a_bad_name_is_refused_with_the_servers_words_and_nothing_changes(self):
        self.page.open_menu("WEB0246")
        self.page.choose("Rename")
        self.page.answer("a/b.txt")
        error = self.driver.find_element(By.ID, "ask-error")
        self.page.wait(lambda: error.is_displayed())
        self.assertIn("name", error.text)
        self.page.keys(Keys.ESCAPE)
        self.assertEqual(self.page.text_of("WEB0246", ".name"), "report 246.txt")

    def test_move_offers_the_folders_and_a_new_one_is_confirmed(self):
        self.page.open_menu("WEB0247")
        self.page.choose("Move to a folder")
        options = lambda: self.driver.execute_script("return [...document.querySelectorAll('#ask-options option')].map(o => o.value)")
        # The dialog opens once the folders are in (a request): wait for them as a person would see them.
        self.page.wait(lambda: "/projects" in options(), message="the folders one has are offered")
        self.page.answer("/archive/2021")
        error = self.driver.find_element(By.ID, "ask-error")
        self.page.wait(lambda: error.is_displayed() and "new folder" in error.text, message="a new folder is not made silently")
        self.assertEqual(json.loads(self.shared.request("GET", "/share/WEB0247")[2])["folder"], "/")
        self.driver.find_element(By.ID, "ask-input").send_keys(Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0247", ".folder") == "/archive/2021")
        status, _, body = self.shared.request("GET", "/share/WEB0247")
        self.assertEqual(json.loads(body)["folder"], "/archive/2021")

    def storage_count(self):
        match = re.search(r"in (\d+) share", self.driver.find_element(By.ID, "storage-text").text)
        return int(match.group(1)) if match else None

    def test_delete_then_undo(self):
        self.page.wait(lambda: self.storage_count() is not None, message="the storage line")
        before = self.storage_count()
        self.page.open_menu("WEB0248")
        self.page.choose("Delete")
        self.page.wait(lambda: "WEB0248" not in self.page.ids())
        self.page.wait(lambda: self.storage_count() == before - 1, message="the storage line counts the deletion")
        undo = self.driver.find_element(By.ID, "toast-undo")
        self.page.wait(lambda: undo.is_displayed())
        undo.click()
        self.page.wait(lambda: "WEB0248" in self.page.ids())
        self.page.wait(lambda: self.storage_count() == before, message="and the undo")

    def test_ctrl_z_undoes_a_deletion_and_focus_returns_to_the_row(self):
        self.page.open()
        name = self.page.text_of("WEB0243", ".name")
        self.page.open_menu("WEB0243")
        self.page.choose("Delete")
        self.page.wait(lambda: "WEB0243" not in self.page.ids())
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-undo").is_displayed(), message="the toast")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.page.wait(lambda: "WEB0243" in self.page.ids(), message="Ctrl+Z brings the share back")
        self.page.wait(lambda: self.page.active().get_attribute("aria-label") == f"Actions for {name}",
                       message="and focus comes back to its row")

    def test_sorting_by_name_starts_a_to_z_and_by_size_largest_first(self):
        self.page.open()
        sort = lambda: Select(self.driver.find_element(By.ID, "sort"))
        sort().select_by_value("name")
        self.page.wait(lambda: "sort=name" in self.driver.current_url and "order=asc" in self.driver.current_url)
        self.page.wait_loaded()
        names = self.page.names()
        self.assertEqual(names, sorted(names, key=str.lower), "A to Z")
        sort().select_by_value("size")
        self.page.wait(lambda: "sort=size" in self.driver.current_url and "order=asc" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Largest first")
        sort().select_by_value("createdAt")
        self.page.wait(lambda: "sort=" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Newest first")

    def test_the_trash_restores_and_deletes_for_good(self):
        for id in ("WEB0245", "WEB0244"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        self.driver.find_element(By.ID, "trash-toggle").click()
        self.page.wait(lambda: "trashed=1" in self.driver.current_url)
        self.page.wait_loaded()
        self.page.open_menu("WEB0245")
        self.page.choose("Restore")
        self.page.wait(lambda: "WEB0245" not in self.page.ids())
        self.page.open_menu("WEB0244")
        self.page.choose("Delete for good")
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"), "the confirmation's button")
        self.page.wait(lambda: "WEB0244" not in self.page.ids())
        self.assertEqual(self.shared.request("GET", "/share/WEB0244?trashed=true")[0], 404)
        self.assertEqual(self.shared.request("GET", "/share/WEB0245")[0], 200)

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
                self.assertEqual(self.driver.execute_script("return getComputedStyle(document.body).backgroundColor"), background,
                                 f"{scheme} follows the system")
                overflow = self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth")
                self.assertFalse(overflow, f"no sideways scrolling at {width} px")
                self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{scheme}.png"))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        emulate(self.driver, None)

    def test_folders_show_above_the_rows_as_real_links_and_a_new_view_starts_at_the_top(self):
        link = self.driver.find_element(By.CSS_SELECTOR, "#folders a")
        self.assertIn("projects", link.text)
        self.assertIn("50 shares", link.text, "with the shares in it and below it")
        self.assertTrue(link.get_attribute("href").endswith("?folder=%2Fprojects"), "a real link, to open in a new tab")
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: self.driver.execute_script("return scrollY") > 0)
        self.page.click(lambda: self.driver.find_element(By.CSS_SELECTOR, "#list a.folder"), "a row's folder link")
        self.page.wait(lambda: "folder=%2Fprojects%2Falpha" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.execute_script("return scrollY"), 0, "the new list from its top")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#list a.folder"), [], "rows do not repeat the folder shown")
        self.driver.find_element(By.LINK_TEXT, "projects").click()
        self.page.wait(lambda: self.driver.current_url.endswith("?folder=%2Fprojects"))
        self.page.wait_loaded()
        self.assertEqual([a.text.split("\n")[0] for a in self.driver.find_elements(By.CSS_SELECTOR, "#folders a")], ["alpha"])

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

    def test_the_storage_bar_has_a_legend_in_distinct_colours(self):
        legend = lambda: self.driver.find_elements(By.CSS_SELECTOR, "#storage-legend li")
        self.page.wait(lambda: len(legend()) == 10, message="one entry per type")
        colours = {item.find_element(By.CSS_SELECTOR, ".swatch").value_of_css_property("background-color") for item in legend()}
        self.assertEqual(len(colours), 10, "no two types share a colour")
        self.assertIn("Spreadsheet", " ".join(item.text for item in legend()))

    def test_the_whole_historys_use_is_in_the_header_and_a_filter_says_what_matches(self):
        self.page.open("?type=pdf")
        usage = lambda: self.driver.find_element(By.ID, "usage-text").text
        used = json.loads(self.shared.request("GET", "/share/stats?by=none")[2])["bytes"]
        self.page.wait(lambda: usage() == f"{used / 1e6:.1f} MB used", message=f"the whole history's use: {usage()}")
        self.assertLess(self.driver.find_element(By.ID, "usage").rect["y"], 80, "at the top of the page")
        match = self.driver.find_element(By.ID, "match").text
        pdf = json.loads(self.shared.request("GET", "/share/stats?type=pdf&by=none")[2])
        self.assertEqual(match, f"{pdf['count']} shares · {pdf['bytes'] / 1e6:.1f} MB match", "the filter's count and bytes, said to be the filter's")

    def test_opening_a_folder_keeps_the_filters_and_says_its_counts_are_of_everything(self):
        self.page.open("?q=report&type=pdf")
        link = self.driver.find_element(By.CSS_SELECTOR, '#folders a[href$="folder=%2Fprojects"]')
        self.assertIn("?q=report&type=pdf&folder=%2Fprojects", link.get_attribute("href"), "the folder's link keeps the filters")
        link.click()
        self.page.wait(lambda: "folder=%2Fprojects" in self.driver.current_url, message="the folder opens")
        self.page.wait_loaded()
        self.assertIn("q=report", self.driver.current_url)
        self.assertIn("type=pdf", self.driver.current_url)
        names = self.page.names()
        self.assertTrue(names and all(name.startswith("report") and name.endswith(".pdf") for name in names), names)
        self.page.open("?q=report")
        label = self.driver.find_element(By.ID, "folders").get_attribute("aria-label")
        self.assertIn("counts of all their shares", label)
        self.assertIn("in all", self.driver.find_element(By.CSS_SELECTOR, "#folders .folder-totals").text)

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

    def test_a_shares_history_names_no_one_when_nobody_signs_in(self):
        self.page.open_menu("WEB0200")
        actions = [button.text for button in self.driver.find_elements(By.CSS_SELECTOR, "#menu-actions button")]
        self.assertIn("Copy share id", actions, "without share_url the menu names what it copies")
        self.assertNotIn("Copy link", actions)
        self.page.choose("History")
        events = lambda: self.driver.find_element(By.ID, "history-events").text
        self.page.wait(lambda: "Imported" in events())
        self.assertNotIn("by local", events())
        self.page.keys(Keys.ESCAPE)

    def test_the_accessibility_checker_is_axe_core_4(self):
        with open(AXE) as script:
            self.driver.execute_script(script.read())
        self.assertTrue(self.driver.execute_script("return axe.version").startswith("4."))


def emulate(driver, width, height=None, touch=False):
    """The viewport of a phone (`touch`: its touch screen), or, with `width` None, the window's own again."""
    if width is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        return
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5})


class PhoneTests(BrowserTests):
    """The page on a phone's touch screen: the list first, filters behind a button, controls a thumb can hit."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def tearDown(self):
        emulate(self.driver, None)

    def test_at_320_by_568_the_list_comes_first_with_four_whole_rows(self):
        self.assertIn("four whole rows", open(os.path.join(ROOT, "README.md")).read(), "what the README promises")
        emulate(self.driver, 320, 568, touch=True)
        self.page.open()
        whole = self.driver.execute_script(
            "return [...document.querySelectorAll('#list li.row')].filter((r) => r.getBoundingClientRect().bottom <= innerHeight).length")
        self.assertGreaterEqual(whole, 4, "rows wholly on the first screen")
        self.assertFalse(self.driver.find_element(By.ID, "type").is_displayed(), "the filters wait behind their button")
        self.assertTrue(self.driver.find_element(By.ID, "q").is_displayed(), "the search stays in the bar")
        self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")

    def test_the_filters_open_from_a_button_that_counts_them(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        toggle = self.driver.find_element(By.ID, "filter-toggle")
        self.assertEqual((toggle.text, toggle.get_attribute("aria-expanded")), ("Filters", "false"))
        toggle.click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "type").is_displayed(), message="the panel opens")
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        self.page.click(lambda: self.driver.find_element(By.XPATH, '//div[@id="presets"]/button[text()="This year"]'))
        self.page.wait(lambda: self.driver.find_element(By.ID, "filter-toggle").text == "Filters (2)", message="two filters on")

    def test_the_filters_are_a_sheet_showing_how_many_and_what_is_on_stays_as_chips(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        self.driver.find_element(By.ID, "filter-toggle").click()
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        Select(self.driver.find_element(By.ID, "sort")).select_by_value("size")
        self.page.wait(lambda: "sort=size" in self.driver.current_url)
        show = self.driver.find_element(By.ID, "show-results")
        self.page.wait(lambda: show.text == "Show 25 shares", message=show.text)
        self.assertTrue(self.driver.find_element(By.ID, "type").is_displayed(), "the sheet stays open after a choice")
        show.click()
        self.page.wait(lambda: not self.driver.find_element(By.ID, "type").is_displayed(), message="the sheet closes")
        chips = lambda: [chip.text for chip in self.driver.find_elements(By.CSS_SELECTOR, "#active .chip")]
        self.assertEqual(chips(), ["PDF ✕", "Size: Largest first ✕"], "the sort and the filter stay in sight")
        self.driver.find_element(By.CSS_SELECTOR, "#active .chip").click()
        self.page.wait(lambda: "type=pdf" not in self.driver.current_url, message="one tap clears the type")
        self.page.wait(lambda: chips() == ["Size: Largest first ✕"])

    def test_the_keyboard_stays_in_the_open_sheet_and_escape_returns_to_its_button(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        toggle = self.driver.find_element(By.ID, "filter-toggle")
        toggle.click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "type").is_displayed(), message="the sheet opens")
        inside = lambda: self.driver.execute_script("return document.getElementById('filter-panel').contains(document.activeElement)")
        self.assertTrue(inside(), "opening the sheet puts the keyboard in it")
        first = self.driver.switch_to.active_element
        # A date field holds several stops (day, month, year): twice round the sheet at least, whatever they number.
        for _ in range(60):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            self.assertTrue(inside(), "Tab never leaves the sheet for the list behind it")
        show = self.driver.find_element(By.ID, "show-results")
        self.driver.execute_script("arguments[0].focus()", show)
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.driver.switch_to.active_element, first, "Tab past the last control comes back to the first")
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        self.assertEqual(self.driver.switch_to.active_element, show, "Shift+Tab before the first control goes to the last")
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.page.wait(lambda: not self.driver.find_element(By.ID, "type").is_displayed(), message="Escape closes the sheet")
        self.assertEqual(self.driver.switch_to.active_element, toggle, "and gives the keyboard back to the Filters button")

    def test_controls_have_16_px_text_and_44_px_targets(self):
        emulate(self.driver, 390, 844, touch=True)
        self.page.open()
        self.driver.find_element(By.ID, "filter-toggle").click()
        small = self.driver.execute_script("""
            const controls = [...document.querySelectorAll('button, input, select, a, .pick')].filter((c) => c.getClientRects().length
              && getComputedStyle(c).visibility !== 'hidden' && !c.closest('dialog, .pick') || c.matches?.('.pick'));
            return controls.filter((c) => c.type !== 'checkbox').flatMap((c) => {
              const box = c.getBoundingClientRect();
              const text = parseFloat(getComputedStyle(c).fontSize);
              const field = c.matches('input, select');
              const wrong = [];
              if (field && text < 16) wrong.push(`${c.id || c.className} text ${text}px`);
              if (!c.closest('.meta, .crumbs a') && box.height < 44) wrong.push(`${c.id || c.className || c.textContent} ${box.height}px high`);
              return wrong;
            });""")
        self.assertEqual(small, [], "fields iOS would zoom into, or targets under 44 px")


class TidyTests(BrowserTests):
    """Acting on shares one at a time and many at once, by pointer and by keyboard, on a history of its own."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def select(self, id, shift=False):
        check = lambda: self.page.row(id).find_element(By.CSS_SELECTOR, ".select")
        self.driver.execute_script("arguments[0].scrollIntoView({ block: 'center' })", check())
        if shift:
            self.page.wait(lambda: ActionChains(self.driver).key_down(Keys.SHIFT).click(check()).key_up(Keys.SHIFT).perform() or True)
        else:
            self.page.click(check)

    def selection_text(self):
        return self.driver.find_element(By.ID, "selection-count").text

    def test_a_shift_click_selects_a_range_deleted_in_one_request_with_one_undo(self):
        self.select("WEB0239")
        self.select("WEB0236", shift=True)
        self.page.wait(lambda: self.selection_text() == "4 shares selected", message=self.selection_text())
        self.driver.find_element(By.XPATH, '//span[@id="selection-actions"]/button[text()="Delete 4"]').click()
        gone = ["WEB0239", "WEB0238", "WEB0237", "WEB0236"]
        self.page.wait(lambda: not set(gone) & set(self.page.ids()), message="the four rows go")
        self.assertFalse(self.driver.find_element(By.ID, "selection").is_displayed(), "the selection is done")
        self.assertEqual(self.driver.find_element(By.ID, "toast-text").text, "Deleted 4 shares")
        self.driver.find_element(By.ID, "toast-undo").click()
        self.page.wait(lambda: set(gone) <= set(self.page.ids()), message="one Undo brings all four back")

    def test_select_all_matching_acts_on_every_page_of_the_view(self):
        self.page.open("?q=notes")
        matching = json.loads(self.shared.request("GET", "/share/stats?q=notes&by=none")[2])["count"]
        self.select(self.page.ids()[0])
        select_all = self.driver.find_element(By.ID, "select-all")
        self.page.wait(lambda: select_all.text == f"Select all {matching} matching shares", message=select_all.text)
        select_all.click()
        self.page.wait(lambda: self.selection_text() == f"{matching} shares selected")
        self.driver.find_element(By.XPATH, f'//span[@id="selection-actions"]/button[text()="Move {matching}…"]').click()
        self.page.answer("/notes")
        self.page.wait(lambda: "new folder" in self.driver.find_element(By.ID, "ask-error").text, message="a new folder is asked for twice")
        self.driver.find_element(By.ID, "ask-input").send_keys(Keys.ENTER)
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == f"Moved {matching} shares", message="moved")
        moved = json.loads(self.shared.request("GET", "/share/stats?folder=%2Fnotes&by=none")[2])["count"]
        self.assertEqual(moved, matching, "every page's shares, not only those loaded")

    def test_the_keyboard_alone_selects_deletes_and_undoes(self):
        check = lambda id: self.page.row(id).find_element(By.CSS_SELECTOR, ".select")
        self.driver.execute_script("arguments[0].focus()", check("WEB0231"))
        self.page.keys(Keys.SPACE)
        self.page.wait(lambda: self.selection_text() == "1 share selected")
        self.page.keys(Keys.TAB, Keys.TAB)
        self.assertEqual(self.page.active(), check("WEB0230"), "Tab goes from a row's checkbox to its menu, then the next row's checkbox")
        self.page.keys(Keys.SPACE)
        self.page.wait(lambda: self.selection_text() == "2 shares selected")
        # The Delete key, from wherever focus is in the list: the selection's actions are far from a row deep in it.
        self.page.keys(Keys.DELETE)
        self.page.wait(lambda: not {"WEB0230", "WEB0231"} & set(self.page.ids()))
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.page.wait(lambda: {"WEB0230", "WEB0231"} <= set(self.page.ids()), message="Ctrl+Z")
        self.page.wait(lambda: self.page.active().get_attribute("aria-label") == f"Actions for {self.page.text_of('WEB0231', '.name')}",
                       message="focus back on the row")

    def menu_by_keyboard(self, id, action):
        """Opens the row's menu from its button with Enter, Tabs to `action` and presses it: the keyboard alone."""
        button = self.page.row(id).find_element(By.CSS_SELECTOR, ".menu-button")
        self.driver.execute_script("arguments[0].focus()", button)
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: self.driver.find_element(By.ID, "menu").get_attribute("open") is not None)
        for _ in range(8):
            if self.page.active().text == action:
                break
            self.page.keys(Keys.TAB)
        self.assertEqual(self.page.active().text, action)
        self.page.keys(Keys.ENTER)

    def test_every_menu_action_works_from_the_keyboard_alone(self):
        self.menu_by_keyboard("WEB0219", "Move to a folder")
        self.page.wait(lambda: self.page.active().get_attribute("id") == "ask-input", message="the folder field has focus")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        self.page.keys("/projects", Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0219", ".folder") == "/projects", message="moved")
        self.menu_by_keyboard("WEB0219", "History")
        self.page.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#history-events li")) == 2, message="imported, then moved")
        self.page.keys(Keys.ESCAPE)
        self.menu_by_keyboard("WEB0219", "Delete")
        self.page.wait(lambda: "WEB0219" not in self.page.ids())
        self.driver.execute_script("document.getElementById('trash-toggle').focus()")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: "trashed=1" in self.driver.current_url)
        self.page.wait_loaded()
        self.menu_by_keyboard("WEB0219", "Restore")
        self.page.wait(lambda: "WEB0219" not in self.page.ids(), message="restored out of the trash")
        self.assertEqual(self.shared.request("GET", "/share/WEB0219")[0], 200)

    def test_rename_selects_the_name_without_its_extension(self):
        self.page.open_menu("WEB0229")
        self.page.choose("Rename")
        field = self.driver.find_element(By.ID, "ask-input")
        self.page.wait(lambda: field.is_displayed())
        selected = self.driver.execute_script("const f = arguments[0]; return f.value.slice(f.selectionStart, f.selectionEnd)", field)
        self.assertEqual(selected, "photo 229", "typing keeps .bin")
        self.page.keys("final")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: self.page.text_of("WEB0229", ".name") == "final.bin")

    def test_a_shares_menu_shows_its_history(self):
        self.page.open_menu("WEB0228")
        self.page.choose("History")
        events = lambda: [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#history-events li")]
        self.page.wait(lambda: events(), message="the history dialog")
        self.assertEqual(len(events()), 1)
        self.assertIn("Imported", events()[0])
        self.page.keys(Keys.ESCAPE)
        self.assertEqual(self.page.active().get_attribute("aria-label"), f"Actions for {self.page.text_of('WEB0228', '.name')}")

    def test_the_trash_says_when_and_for_how_long_and_deletes_for_good_only_when_sure(self):
        for id in ("WEB0220", "WEB0221"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        self.page.open("?trashed=1")
        self.assertIn("Deleted 20", self.page.text_of("WEB0220", ".trashed"), "when each was deleted")
        self.assertIn("30 days", self.driver.find_element(By.ID, "trash-days").text)
        self.page.open_menu("WEB0221")
        self.page.choose("Delete for good")
        self.page.wait(lambda: self.page.active().get_attribute("id") == "ask-cancel", message="the dialog starts on Cancel")
        self.assertIn("danger", self.driver.find_element(By.ID, "ask-ok").get_attribute("class"))
        self.page.keys(Keys.ENTER)
        self.assertIn("WEB0221", self.page.ids(), "Enter on Cancel deletes nothing")
        self.driver.find_element(By.ID, "empty-trash").click()
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
        self.page.wait(lambda: self.page.ids() == [] and "The trash is empty." in self.driver.find_element(By.ID, "status").text)
        self.assertEqual(json.loads(self.shared.request("GET", "/share/stats?trashed=true&by=none")[2])["count"], 0)

    def test_the_undo_toast_stays_while_it_has_focus(self):
        # The page's clock, made by hand: timers run when the test says, so no test waits for ten seconds.
        self.driver.execute_script("""
            window.pending = new Map(); let next = 1;
            window.setTimeout = (run) => { pending.set(next, run); return next++; };
            window.clearTimeout = (id) => pending.delete(id);
            window.runTimers = () => { const due = [...pending.values()]; pending.clear(); due.forEach((run) => run()); };""")
        self.page.open_menu("WEB0215")
        self.page.choose("Delete")
        toast = self.driver.find_element(By.ID, "toast")
        self.page.wait(lambda: toast.is_displayed())
        self.driver.execute_script("document.getElementById('toast-undo').focus(); runTimers()")
        self.assertTrue(toast.is_displayed(), "time passing does not take away what has focus")
        self.driver.execute_script("document.getElementById('q').focus(); runTimers()")
        self.assertFalse(toast.is_displayed(), "once focus leaves, the toast goes in its time")
        self.shared.request("POST", "/share/WEB0215/restore")

    def test_a_toast_about_a_share_deleted_for_good_goes_away(self):
        self.page.open_menu("WEB0210")
        self.page.choose("Delete")
        toast = self.driver.find_element(By.ID, "toast")
        self.page.wait(lambda: toast.is_displayed())
        self.driver.find_element(By.ID, "trash-toggle").click()
        self.page.wait_loaded()
        self.page.open_menu("WEB0210")
        self.page.choose("Delete for good")
        self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
        self.page.wait(lambda: not toast.is_displayed(), message="nothing is left to undo")

    def test_without_the_network_the_list_is_marked_stale_and_comes_back_online(self):
        self.driver.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        try:
            Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
            message = self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message.is_displayed(), message="the page says it cannot reach the server")
            self.assertIn("offline", message.text)
            self.assertNotIn("shared", message.text, "words for people, not operators")
            self.assertIn("stale", self.driver.find_element(By.ID, "list").get_attribute("class"))
            self.assertTrue(self.driver.find_element(By.ID, "retry").is_displayed())
        finally:
            self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        self.driver.execute_script("dispatchEvent(new Event('online'))")
        self.page.wait(lambda: not self.driver.find_element(By.ID, "message").is_displayed(), message="back by itself")
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".pdf") for name in self.page.names()))
        self.assertNotIn("stale", self.driver.find_element(By.ID, "list").get_attribute("class"))

    def test_the_trash_is_one_place_and_its_button_deletes_only_what_it_names(self):
        for id in ("WEB0005", "WEB0010", "WEB0011", "WEB0012"):
            self.assertEqual(self.shared.request("DELETE", f"/share/{id}")[0], 204)
        try:
            self.page.open("?folder=%2Fprojects%2Falpha")
            self.driver.find_element(By.ID, "trash-toggle").click()
            self.page.wait(lambda: "trashed=1" in self.driver.current_url and "folder" not in self.driver.current_url)
            self.page.wait_loaded()
            self.assertEqual(sorted(self.page.ids()), ["WEB0005", "WEB0010", "WEB0011", "WEB0012"], "the whole trash, whichever folder")
            button = lambda: self.driver.find_element(By.ID, "empty-trash")
            self.page.wait(lambda: button().text == "Empty trash (4 shares)", message=button().text)
            self.page.open("?trashed=1&type=doc")
            self.page.wait(lambda: button().text == "Delete 1 share for good", message="the one document the view shows")
            self.page.open("?trashed=1&q=会议记录")
            self.page.wait(lambda: button().text == "Delete 2 shares for good", message="the two the view shows")
            button().click()
            self.page.click(lambda: self.driver.find_element(By.ID, "ask-ok"))
            self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Deleted 2 shares for good")
            left = [record["id"] for record in json.loads(self.shared.request("GET", "/share?trashed=true")[2])]
            self.assertEqual(sorted(left), ["WEB0010", "WEB0012"], "what the view did not show is still in the trash")
        finally:
            for id in ("WEB0010", "WEB0012"):
                self.shared.request("POST", f"/share/{id}/restore")

    def test_select_all_then_delete_says_how_many_and_one_undo_brings_them_back(self):
        self.page.open("?q=photo")
        matching = json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"]
        self.select(self.page.ids()[0])
        self.page.click(lambda: self.driver.find_element(By.ID, "select-all"))
        self.page.click(lambda: self.driver.find_element(By.XPATH, f'//span[@id="selection-actions"]/button[text()="Delete {matching}"]'))
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == f"Deleted {matching} shares: they are in the trash")
        self.assertEqual(json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"], 0)
        self.driver.find_element(By.ID, "toast-undo").click()
        self.page.wait(lambda: json.loads(self.shared.request("GET", "/share/stats?q=photo&by=none")[2])["count"] == matching,
                       message="one Undo brings every one of them back")

    def test_on_a_phone_undo_stays_on_the_screen_whatever_the_name(self):
        name = "a" * 200 + ".txt"
        self.shared.import_records([{"id": "LONGTOAST", "name": name, "size": 1, "createdAt": "2022-02-01T00:00:00Z"}])
        emulate(self.driver, 390, 844, touch=True)
        try:
            self.page.open()
            self.page.open_menu("LONGTOAST")
            self.page.choose("Delete")
            self.page.wait(lambda: self.driver.find_element(By.ID, "toast").is_displayed())
            for button in ("toast-undo", "toast-close"):
                self.assertTrue(self.page.inside_screen(button), f"{button} is on the screen")
                self.assertGreaterEqual(self.driver.find_element(By.ID, button).size["width"], 44, f"{button} keeps its size")
            toast = self.driver.find_element(By.ID, "toast").rect
            self.assertGreaterEqual(toast["width"], 390 - 20, "the toast spans the phone's screen")
            self.assertLess(self.driver.find_element(By.ID, "toast-text").size["height"], 30, "the name is cut to one line")
        finally:
            emulate(self.driver, None)
            self.shared.request("DELETE", "/share/LONGTOAST?purge=true")

    def test_a_stopped_server_is_said_as_such_and_the_page_comes_back_by_itself(self):
        self.shared.pause()
        try:
            Select(self.driver.find_element(By.ID, "type")).select_by_value("doc")
            message = lambda: self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message().is_displayed(), message="the page says the server does not answer")
            self.assertIn("server does not answer", message().text)
            self.assertNotIn("offline", message().text, "an online browser is not told to check its connection")
            self.assertIn("Trying again", message().text)
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            self.assertTrue(self.driver.execute_script(
                "const box = document.getElementById('message').getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight"),
                "the notice stays in sight while scrolling")
        finally:
            self.shared.resume()
        self.page.wait(lambda: not message().is_displayed(), seconds=30, message="back by itself once the server answers")
        self.page.wait_loaded()
        self.assertTrue(self.page.names() and all(name.endswith(".docx") for name in self.page.names()))

    def test_an_undo_while_the_server_is_away_is_reported_and_can_be_tried_again(self):
        self.page.open_menu("WEB0209")
        self.page.choose("Delete")
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast").is_displayed())
        self.shared.pause()
        try:
            self.driver.find_element(By.ID, "toast-undo").click()
            message = lambda: self.driver.find_element(By.ID, "message")
            self.page.wait(lambda: message().is_displayed(), message="the failed undo is reported")
            self.assertIn("Undo was not done", message().text)
            self.page.open_menu("WEB0208")
            self.page.choose("Rename")
            self.page.answer("renamed while away.txt")
            error = self.driver.find_element(By.ID, "ask-error")
            self.page.wait(lambda: error.is_displayed(), message="a rename while the server is away says why it was not done")
            self.assertIn("does not answer", error.text)
            self.assertIsNotNone(self.driver.find_element(By.ID, "ask").get_attribute("open"), "the dialog stays, to try again")
            self.page.keys(Keys.ESCAPE)
        finally:
            self.shared.resume()
        self.driver.find_element(By.ID, "retry").click()
        self.page.wait(lambda: json.loads(self.shared.request("GET", "/share/WEB0209")[2]).get("id") == "WEB0209",
                       message="trying again brings the share back")
        self.page.wait(lambda: "WEB0209" in self.page.ids(), message="and its row")


class LinkTests(BrowserTests):
    """A service that names its link pattern: the page copies the share's link."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(server='share_url = "https://files.example.org/s/{id}"\n'), history()[:3])

    def test_copy_link_copies_the_services_link_to_the_share(self):
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.page.open()
        self.page.open_menu("WEB0002")
        self.page.choose("Copy link")
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Copied https://files.example.org/s/WEB0002")
        copied = self.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0](String(e)))")
        self.assertEqual(copied, "https://files.example.org/s/WEB0002")


class LinkStateTests(BrowserTests):
    """Shares with links: each row says at a glance whether its link opens, until when, and how often it was used; the
    list filters by a link's state and sorts by downloads."""

    @classmethod
    def setUpClass(cls):
        soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3 * 86400 + 3600))
        drive = "https://drive.example.com/s/abc"
        records = [
            {"id": "LINK0001", "name": "open.pdf", "size": 10, "createdAt": "2021-03-01T08:00:00Z", "source": drive,
             "expiresAt": soon, "maxDownloads": 5, "downloads": 2},
            {"id": "LINK0002", "name": "used up.pdf", "size": 10, "createdAt": "2021-03-02T08:00:00Z", "source": drive,
             "maxDownloads": 1, "downloads": 1},
            {"id": "LINK0003", "name": "cut off.pdf", "size": 10, "createdAt": "2021-03-03T08:00:00Z", "source": drive, "state": "revoked"},
            {"id": "LINK0004", "name": "no link.pdf", "size": 10, "createdAt": "2021-03-04T08:00:00Z"},
        ]
        cls.open_browser(Shared(), records)

    def test_each_row_says_whether_its_link_opens(self):
        self.page.open()
        self.page.wait(lambda: "LINK0001" in self.page.ids())

        def words(share_id):
            found = self.driver.find_elements(By.CSS_SELECTOR, f'.row[data-id="{share_id}"] .meta .link')
            return found[0].text if found else ""
        self.assertEqual(words("LINK0001"), "expires in 3 days · 2 of 5 downloads")
        self.assertEqual(words("LINK0002"), "Closed: its one download used", "which limit closed it")
        self.assertEqual(words("LINK0003"), "Sharing stopped")
        self.assertEqual(words("LINK0004"), "", "a share without a link says nothing of one")
        closed = self.driver.find_element(By.CSS_SELECTOR, '.row[data-id="LINK0003"] .meta .link')
        self.assertIn("closed", closed.get_attribute("class"))
        self.assertEqual(axe_violations(self.driver), [])

    def test_the_link_filter_lists_only_shares_in_that_state_and_the_view_keeps_it(self):
        self.page.open()
        Select(self.driver.find_element(By.ID, "state")).select_by_value("expired")
        self.page.wait(lambda: self.page.ids() == ["LINK0002"], message="only the used-up link")
        self.assertIn("state=expired", self.driver.current_url)
        Select(self.driver.find_element(By.ID, "state")).select_by_value("active")
        self.page.wait(lambda: self.page.ids() == ["LINK0001"], message="only the link that opens")
        self.page.open("?state=revoked")
        self.assertEqual(self.page.ids(), ["LINK0003"], "the view is the page's URL")

    def test_sorting_by_downloads_puts_the_most_downloaded_first(self):
        self.page.open()
        Select(self.driver.find_element(By.ID, "sort")).select_by_value("downloads")
        self.page.wait(lambda: self.page.ids()[:2] == ["LINK0001", "LINK0002"], message="two downloads, then one")
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Most downloaded first")


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


class SignInTests(BrowserTests):
    """A server with a token: the page asks for it, sends it, and asks again on a 401."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(tokens=["web-secret"]), history()[:10])

    def test_the_header_names_the_user_and_sign_out_forgets_the_token(self):
        self.driver.get(self.shared.url + "/")
        by_id = self.driver.find_element
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: by_id(By.ID, "who").is_displayed() and by_id(By.ID, "who").text == "token-1",
                       message="the header names the token's user")
        self.page.click(lambda: by_id(By.ID, "sign-out"))
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="signed out, the page asks again")
        self.assertEqual(self.driver.execute_script("return sessionStorage.length + localStorage.length"), 0, "the token is forgotten")

    def test_escape_on_the_sign_in_leaves_a_way_back(self):
        self.driver.get(self.shared.url + "/")
        by_id = self.driver.find_element
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys(Keys.ESCAPE)
        self.page.wait(lambda: by_id(By.ID, "signed-out").is_displayed(), message="the page says why it is empty")
        self.assertEqual(self.page.active().get_attribute("id"), "sign-in-again", "focus is on the way back")
        self.page.keys(Keys.ENTER)
        self.page.wait(lambda: by_id(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens again")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: len(self.page.rows()) == 10, message="the list after signing in")
        self.assertFalse(by_id(By.ID, "signed-out").is_displayed())
        self.driver.execute_script("sessionStorage.clear(); localStorage.clear()")

    def test_the_page_asks_for_a_token_and_keeps_it_for_the_tab(self):
        self.driver.get(self.shared.url + "/")
        dialog = self.driver.find_element(By.ID, "signin")
        self.page.wait(lambda: dialog.get_attribute("open") is not None, message="the sign-in opens")
        self.assertEqual(self.page.active().get_attribute("id"), "token")
        self.page.keys("wrong", Keys.ENTER)
        error = self.driver.find_element(By.ID, "signin-error")
        self.page.wait(lambda: error.is_displayed(), message="a wrong token brings it back, saying so")
        self.assertEqual(self.driver.find_element(By.ID, "token").get_attribute("value"), "wrong", "the token stays, to mend")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: len(self.page.rows()) == 10, message="the list after signing in")
        self.assertEqual(self.driver.execute_script("return localStorage.length"), 0, "not remembered unless asked")
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 10, "the tab keeps the token")


def long_history(count=4000):
    """`count` shares over five years, about two a day, newest first at the root."""
    start = 1609459200
    step = 5 * 365 * 86400 // count
    return [{"id": f"LONG{index:05d}", "name": f"scan {index}.pdf", "size": 1000 + index,
             "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + index * step))} for index in range(count)]


class LongHistoryTests(BrowserTests):
    """A history of thousands of shares: the page keeps only the rows near the screen, and finds its place again."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), long_history())

    def scroll_to_end(self, rows):
        """Scrolls down until at least `rows` records are loaded (the last row drawn is the oldest loaded)."""
        def loaded():
            last = self.driver.execute_script("return [...document.querySelectorAll('#list li.row')].at(-1)?.dataset.id")
            if last and 4000 - int(last[4:]) >= rows:
                return True
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            return False
        self.page.wait(loaded, seconds=60, message=f"{rows} rows loaded")

    def test_thousands_of_rows_stay_a_few_hundred_in_the_page_and_load_at_the_bottom(self):
        self.page.open()
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: self.driver.find_element(By.ID, "more").text == "Loading more…" or len(self.page.rows()) > 100,
                       message="more rows come")
        self.scroll_to_end(1500)
        drawn = len(self.page.rows())
        elements = self.driver.execute_script("return document.getElementsByTagName('*').length")
        self.assertLessEqual(drawn, 400, f"{drawn} rows in the page for 1,500 loaded")
        self.assertLessEqual(elements, 400 * ROW_ELEMENTS + 400, f"{elements} elements")
        more = self.driver.find_element(By.ID, "more").rect["y"]
        last = self.page.rows()[-1].rect["y"]
        self.assertGreater(more, last, "loading shows below the rows, where they will come")
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.page.wait(lambda: self.page.ids()[0] == "LONG03999", message="the top rows are drawn again")

    def test_back_brings_a_person_to_the_row_they_left(self):
        self.page.open()
        self.scroll_to_end(400)
        row = lambda: self.page.row("LONG03649")
        self.driver.execute_script("arguments[0].scrollIntoView({ block: 'start' })", row())
        self.driver.execute_script("window.scrollBy(0, -100)")
        self.page.wait(lambda: abs(row().rect["y"] - self.driver.execute_script("return scrollY") - 100) < 2)
        top = row().rect["y"] - self.driver.execute_script("return scrollY")
        self.driver.execute_script("dispatchEvent(new Event('scroll'))")
        self.page.wait(lambda: (self.driver.execute_script("return history.state") or {}).get("anchor"), message="the place is kept")
        self.page.open("?type=doc")
        self.driver.back()
        self.page.wait(lambda: len(self.page.ids()) and self.page.row("LONG03649").is_displayed(), message="row 350 is drawn again")
        self.page.wait_loaded()
        now = self.page.row("LONG03649").rect["y"] - self.driver.execute_script("return scrollY")
        self.assertLess(abs(now - top), 80, f"row 350 at {now} px from the top, left at {top}")

    def test_go_to_a_month_starts_the_list_there(self):
        self.page.open()
        self.page.set_date("jump", "2022-03")
        self.page.wait(lambda: "to=2022-03-31" in self.driver.current_url, message="the list starts at the end of March 2022")
        self.page.wait_loaded()
        first = self.page.text_of(self.page.ids()[0], ".time")
        self.assertTrue(first.startswith("2022-03"), first)


class EmptyHistoryTests(BrowserTests):
    """A history with nothing in it yet."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])

    def test_an_empty_history_says_so_and_how_to_add_a_share(self):
        self.page.open()
        status = self.driver.find_element(By.ID, "status").text
        self.assertIn("Nothing has been shared yet", status)
        self.assertIn("share add", status)
        self.page.open("?q=zzz")
        self.assertEqual(self.driver.find_element(By.ID, "status").text, "No shares match.")


class PerUserTests(BrowserTests):
    """Per-user histories with a quota: each person signs in to their own history; an admin may look at another's."""

    @classmethod
    def setUpClass(cls):
        shared = Shared(users={"alice": "alice-secret", "bob": "bob-secret"},
                        auth='histories = "per-user"\nadmins = ["alice"]\nquota_bytes = 1000000\n')
        records = history()
        cls.open_browser(shared, records[:3], url=None)
        shared.import_records(records[3:8], token="bob-secret")

    def sign_in(self, token):
        self.driver.get(self.shared.url + "/")
        self.driver.execute_script("sessionStorage.clear(); localStorage.clear()")
        self.driver.get(self.shared.url + "/")
        self.page.wait(lambda: self.driver.find_element(By.ID, "signin").get_attribute("open") is not None, message="the sign-in opens")
        self.page.keys(token, Keys.ENTER)
        self.page.wait_loaded()

    def test_each_person_sees_their_own_history_and_their_quota(self):
        self.sign_in("bob-secret")
        self.page.wait(lambda: len(self.page.rows()) == 5, message="bob's five shares")
        storage = self.driver.find_element(By.ID, "storage-text")
        self.page.wait(lambda: storage.text == "37.0 kB of 1.0 MB in 5 shares", message=f"bob's storage and quota: {storage.text}")
        self.assertFalse(self.driver.find_element(By.ID, "user-picker-label").is_displayed(), "bob is no admin")

    def test_an_admin_picks_another_users_history_and_the_url_keeps_it(self):
        self.sign_in("alice-secret")
        self.page.wait(lambda: len(self.page.rows()) == 3, message="alice's own three shares")
        picker = self.driver.find_element(By.ID, "user-picker")
        self.page.wait(lambda: picker.is_displayed() and len(Select(picker).options) == 2, message="the picker offers bob")
        Select(picker).select_by_value("bob")
        self.page.wait(lambda: "user=bob" in self.driver.current_url, message="the view's URL names bob")
        self.page.wait(lambda: len(self.page.rows()) == 5, message="bob's five shares")
        self.assertEqual(self.page.ids()[0], "WEB0007")
        emulate(self.driver, 390, 844, touch=True)
        viewing = self.driver.find_element(By.ID, "viewing")
        self.assertTrue(viewing.is_displayed() and "bob" in viewing.text, "a clear sign of whose history this is")
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.assertGreaterEqual(viewing.rect["y"] - self.driver.execute_script("return scrollY"), -1, "in sight while scrolling")
        emulate(self.driver, None)
        self.driver.back()
        self.page.wait(lambda: len(self.page.rows()) == 3, message="back to alice's own")


class SubPathTests(BrowserTests):
    """The page behind nginx at /files, from the repository's site file."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="share-sock-")
        socket_path = os.path.join(cls.scratch, "shared.sock")
        shared = Shared(base_path="/files", socket_path=socket_path)
        cls.proxy = Nginx(socket_path)
        # Requests the tests make themselves go through the proxy too.
        shared.url = cls.proxy.url
        cls.open_browser(shared, history())

    def test_everything_works_under_the_sub_path(self):
        self.driver.get(f"http://127.0.0.1:{self.proxy.port}/files")
        self.page.wait_loaded()
        self.assertTrue(self.driver.current_url.endswith("/files/"), self.driver.current_url)
        self.assertEqual(len(self.page.rows()), 100)
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: len(self.page.rows()) >= 200, message="the next page through the proxy")
        Select(self.driver.find_element(By.ID, "type")).select_by_value("doc")
        self.page.wait(lambda: "/files/?type=doc" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".docx") for name in self.page.names()))
        self.page.open_menu("WEB0241")
        self.page.choose("Rename")
        self.page.answer("renamed behind nginx.docx")
        self.page.wait(lambda: self.page.text_of("WEB0241", ".name") == "renamed behind nginx.docx")
        match = self.driver.find_element(By.ID, "match").text
        self.assertIn("25 shares", match, "the filter's count")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "sub-path.png"))


# Sharing from the page lives in a module of its own, run with these (scripts/test-web lists this module's classes).
from test_sharing import BrokenUploadTests, LinkDialogTests, RecipientTests, UploadTests  # noqa: E402,F401

if __name__ == "__main__":
    unittest.main(verbosity=2)
