"""What every test of the web page stands on: a real headless Chromium on the page of the real `shared`, the page's
parts as a person finds them, the histories the tests load, and axe. The tests are in test_*.py, one file per thing
a person does; scripts/test-web runs them (and installs Chromium, its driver, Selenium and axe when missing)."""
import os
import shutil
import time
import unittest

import axe_playwright_python
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from servers import ROOT

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


def emulate(driver, width, height=None, touch=False):
    """The viewport of a phone (`touch`: its touch screen), or, with `width` None, the window's own again."""
    if width is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        return
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5})
