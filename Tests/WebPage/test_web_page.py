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
        return WebDriverWait(self.driver, seconds, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)) \
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
        shared.import_records(records)
        cls.driver = browser()
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
        live = json.loads(self.shared.request("GET", "/share/stats")[2])["count"]
        for expected in (200, live):
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            self.page.wait(lambda: len(self.page.rows()) >= expected, message=f"{expected} rows after scrolling")
        ids = self.page.ids()
        self.assertEqual(len(set(ids)), live, "each share once, and all of them")

    def test_search_is_server_side_literal_and_debounced(self):
        self.driver.execute_script(
            "window.sent = []; const send = window.fetch;"
            "window.fetch = (url, options) => { window.sent.push(String(url)); return send(url, options); };")
        field = self.driver.find_element(By.ID, "q")
        for letter in "report 24_":
            field.send_keys(letter)
            time.sleep(0.05)
        self.page.wait(lambda: "q=report+24_" in self.driver.current_url, message="the search after typing stops")
        self.page.wait_loaded()
        listings = [url for url in self.driver.execute_script("return window.sent") if "share?" in url and "stats" not in url]
        self.assertLessEqual(len(listings), 3, f"typing ten letters sent {listings}")
        self.assertEqual(self.page.names(), [], "'_' is a plain character, not a wildcard")
        field.send_keys(Keys.BACKSPACE)
        self.page.wait(lambda: "q=report+24" in self.driver.current_url)
        self.page.wait(lambda: self.page.names() and all("report 24" in name for name in self.page.names()))
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "q").get_attribute("value"), "report 24", "the search is in the URL")

    def test_a_day_and_a_range_filter_in_the_browsers_zone(self):
        self.page.set_date("date", "2021-03-01")
        self.page.wait(lambda: "date=2021-03-01" in self.driver.current_url)
        self.page.wait_loaded()
        times = [row.find_element(By.CSS_SELECTOR, ".time").text for row in self.page.rows()]
        self.assertTrue(times and all(time_.startswith("2021-03-01") for time_ in times), times)
        self.page.set_date("from", "2021-02-01")
        self.page.set_date("to", "2021-02-03")
        self.page.wait(lambda: "to=2021-02-03" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 3)

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

    def test_move_to_a_folder(self):
        self.page.open_menu("WEB0247")
        self.page.choose("Move to a folder")
        self.page.answer("/archive/2021")
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

    def test_the_first_load_is_light_and_rendering_is_fast(self):
        transferred = self.driver.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".reduce((sum, entry) => sum + entry.transferSize, 0)")
        self.assertLessEqual(transferred, 60_000, f"first load transferred {transferred} bytes")
        elapsed = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import(new URL('rows.js', document.baseURI)).then(({ row }) => {
              const records = Array.from({ length: 100 }, (_, i) => ({ id: 'R' + i, name: 'file ' + i + '.pdf', type: 'pdf',
                size: i * 1000, createdAt: '2021-01-17T12:34:56.789Z', folder: '/reports' }));
              const start = performance.now();
              document.getElementById('list').replaceChildren(...records.map((r) => row(r, { onMenu() {}, onFolder() {} })));
              done(performance.now() - start);
            });""")
        self.assertLessEqual(elapsed, 50, f"rendering 100 rows took {elapsed:.1f} ms")

    def test_no_serious_accessibility_violations(self):
        axe = Axe(self.driver)
        axe.inject()
        violations = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
        self.assertEqual(violations, [], json.dumps([(v["id"], v["help"]) for v in violations]))

    def test_screenshots_at_desktop_and_phone_widths_light_and_dark(self):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for name, width, height in (("desktop", 1280, 900), ("phone", 390, 844)):
            self.driver.set_window_size(width, height)
            self.page.open()
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))
            overflow = self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth")
            self.assertFalse(overflow, f"no sideways scrolling at {width} px")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.page.open()
        background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        self.assertEqual(background, "rgb(18, 19, 22)", "dark mode follows the system")
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "phone-dark.png"))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.driver.set_window_size(1280, 900)


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
        self.page.wait(lambda: dialog.get_attribute("open") is not None, message="a wrong token brings it back")
        self.page.keys("web-secret", Keys.ENTER)
        self.page.wait(lambda: len(self.page.rows()) == 10, message="the list after signing in")
        self.assertEqual(self.driver.execute_script("return localStorage.length"), 0, "not remembered unless asked")
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 10, "the tab keeps the token")


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
        storage = self.driver.find_element(By.ID, "storage-text").text
        self.assertIn("25 shares", storage, "the storage bar follows the filters")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, "sub-path.png"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
